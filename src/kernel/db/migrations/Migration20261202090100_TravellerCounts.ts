import { Migration } from '@mikro-orm/migrations';

/**
 * How many travellers each company has, kept by statement-level triggers in the transaction of
 * every insert and delete, so `GET /travellers` without a search answers `totalElements` exactly
 * from one row instead of counting the company's rows (337 ms at 1,000,000; BENCHMARKS.md).
 * Back-filled from the table as it stands.
 */
export class Migration20261202090100_TravellerCounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "traveller_count" ("company_id" uuid not null primary key, "travellers" bigint not null default 0 check ("travellers" >= 0));`,
    );
    this.addSql(`create function "count_travellers"() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    update traveller_count c set travellers = c.travellers - d.n
      from (select company_id, count(*) as n from old_rows group by company_id) d where c.company_id = d.company_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into traveller_count (company_id, travellers)
      select company_id, count(*) from new_rows group by company_id order by company_id
      on conflict (company_id) do update set travellers = traveller_count.travellers + excluded.travellers;
  end if;
  return null;
end $$;`);
    this.addSql(
      `create trigger "traveller_counted_insert" after insert on "traveller" referencing new table as new_rows for each statement execute function "count_travellers"();`,
    );
    this.addSql(
      `create trigger "traveller_counted_delete" after delete on "traveller" referencing old table as old_rows for each statement execute function "count_travellers"();`,
    );
    this.addSql(
      `create trigger "traveller_counted_update" after update on "traveller" referencing old table as old_rows new table as new_rows for each statement execute function "count_travellers"();`,
    );
    this.addSql(
      `insert into "traveller_count" ("company_id", "travellers") select "company_id", count(*) from "traveller" group by "company_id";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "traveller_counted_insert" on "traveller";`);
    this.addSql(`drop trigger if exists "traveller_counted_delete" on "traveller";`);
    this.addSql(`drop trigger if exists "traveller_counted_update" on "traveller";`);
    this.addSql(`drop function if exists "count_travellers"();`);
    this.addSql(`drop table if exists "traveller_count";`);
  }
}
