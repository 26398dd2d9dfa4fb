import { Migration } from '@mikro-orm/migrations';

/**
 * Test clocks a CI job can own (decision record 0090): besides its own clock (name ''), a company
 * has any number named by the `Sandbox-Clock` header of the requests that read and set them.
 */
export class Migration20261211100200_NamedSandboxClocks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sandbox_clock" add column "name" text not null default '';`);
    this.addSql(
      `alter table "sandbox_clock" add constraint "sandbox_clock_name_check" check ("name" ~ '^([A-Za-z0-9][A-Za-z0-9._-]{0,63})?$');`,
    );
    this.addSql(`alter table "sandbox_clock" drop constraint "sandbox_clock_pkey";`);
    this.addSql(`alter table "sandbox_clock" add constraint "sandbox_clock_pkey" primary key ("company_id", "name");`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "sandbox_clock" where "name" <> '';`);
    this.addSql(`alter table "sandbox_clock" drop constraint "sandbox_clock_pkey";`);
    this.addSql(`alter table "sandbox_clock" add constraint "sandbox_clock_pkey" primary key ("company_id");`);
    this.addSql(`alter table "sandbox_clock" drop constraint if exists "sandbox_clock_name_check";`);
    this.addSql(`alter table "sandbox_clock" drop column if exists "name";`);
  }
}
