import { Migration } from '@mikro-orm/migrations';

/**
 * Whether this database is a sandbox's or production's (decision record 0093): one row at most,
 * written by the first server that starts on it and never changed; no row is a database from
 * before the mode was recorded, which the next server start records.
 */
export class Migration20261214090000_DatabaseMode extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "database_mode" (
  "one_row" boolean not null default true primary key check ("one_row"),
  "mode" text not null check ("mode" in ('sandbox', 'production')),
  "recorded_at" timestamptz not null default now()
);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "database_mode";`);
  }
}
