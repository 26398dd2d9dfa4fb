import { Migration } from '@mikro-orm/migrations';

/** The Khumbu routes of the seed catalogue, whose trekkers fly through Lukla. */
const LUKLA_ROUTES = [
  '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
  'a1d94e7b-2c60-4f3e-8b75-0e9c4d2a71f6',
  '7c2e5b90-4d1a-4a86-b3f0-9e6d21c8a457',
  'd7b1e6a0-4c38-4e92-9a57-0f3b8d2c61e4',
  '0c9a5f37-e1b6-4d28-8f04-a6c3e7b92d51',
  'f2e84b6c-9a07-4c13-b5d1-7e0a3f96c8b2',
];

/**
 * Weather disruptions (decision record 0102): routes carry the area they fly through, the
 * operator declares a disruption of an area, and an extension made under one names it.
 */
export class Migration20261222090000_Disruptions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "route" add column "area" text null;`);
    this.addSql(
      `update "route" set "area" = 'LUKLA' where "id" in (${LUKLA_ROUTES.map((id) => `'${id}'`).join(', ')});`,
    );
    this.addSql(`create sequence "disruption_seq";`);
    this.addSql(`create table "disruption" (
      "id" uuid not null constraint "disruption_pkey" primary key,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "disruption_ref" text not null constraint "disruption_disruption_ref_unique" unique,
      "area" text not null,
      "starts_on" date not null,
      "ends_on" date not null,
      "max_days" int not null check ("max_days" between 1 and 30),
      "note" text not null,
      "declared_by" text not null,
      "ended_on" date null,
      "ended_at" timestamptz null,
      "ended_by" text null,
      constraint "disruption_window_check" check ("ends_on" >= "starts_on"),
      constraint "disruption_ended_check" check ("ended_on" is null or "ended_on" between "starts_on" and "ends_on")
    );`);
    this.addSql(`create index "disruption_area_index" on "disruption" ("area");`);
    this.addSql(`alter table "order_amendment" add column "disruption_id" uuid null references "disruption" ("id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_amendment" drop column if exists "disruption_id";`);
    this.addSql(`drop table if exists "disruption";`);
    this.addSql(`drop sequence if exists "disruption_seq";`);
    this.addSql(`alter table "route" drop column if exists "area";`);
  }
}
