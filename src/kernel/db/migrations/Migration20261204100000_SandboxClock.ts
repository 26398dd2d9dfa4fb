import { Migration } from '@mikro-orm/migrations';

/**
 * A sandbox company's test clock (decision record 0083): the date its requests read as today in
 * Nepal. One row per company at most; no row is the real clock. A deleted company takes its clock.
 */
export class Migration20261204100000_SandboxClock extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sandbox_clock" (
  "company_id" uuid not null primary key references "company" ("id") on delete cascade,
  "today" date not null check ("today" between '2000-01-01' and '2099-12-31'),
  "set_at" timestamptz not null
);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sandbox_clock";`);
  }
}
