import { Migration } from '@mikro-orm/migrations';

/** Adds `n` to the counter of one (company, status, payment status); `n` is -1 only for a key counted before. */
const BUMP = `create function "order_status_count_add"(p_company uuid, p_status text, p_payment_status text, n bigint) returns void language plpgsql as $$
begin
  if n < 0 then
    update order_status_count c set orders = c.orders + n
      where c.company_id = p_company and c.status = p_status and c.payment_status = p_payment_status;
  else
    insert into order_status_count (company_id, status, payment_status, orders) values (p_company, p_status, p_payment_status, n)
      on conflict (company_id, status, payment_status) do update set orders = order_status_count.orders + excluded.orders;
  end if;
end $$;`;

/**
 * The order book at 1,000,000 orders (issue 29): `totalElements` for the broad filters.
 *
 * - `order_status_count`: a company's own orders per (status, payment status), so the exact
 *   count of the unfiltered book and of `status` / `paymentStatus` filters is a sum of a few
 *   rows, not a count of up to a million index entries (484 ms for 600,000). It replaces
 *   `order_count` (the sum of a company's rows is that count). The orders other companies list
 *   a company on are still counted from their rows: a company is listed on few.
 *   Kept by deferred constraint triggers, row by row, at commit of the transaction that
 *   inserts, deletes or changes an order's company, status or payment status: the counter row
 *   (the hot row a company's concurrent orders share) is locked only while that transaction
 *   commits, not from the change to the end of the transaction. One change locks its two rows
 *   in key order.
 * - `insurance_order_book_departure_index` gains (created_at desc, id desc), so a departure
 *   range reads each day's newest orders in page order instead of sorting every match.
 * - `insurance_order_book_traveller_index` carries status and payment_status, so a name search
 *   or a touristId with a status filter is answered from the index (a name search with
 *   `status` counted 100,000 heap rows: 0.5 to 1 s; from the index 45 ms). Both columns are
 *   already indexed, so their updates were not HOT before either.
 * - `order_travel_company.order_created_at`: the listed order's created_at, set on insert (and
 *   kept if an order's created_at ever changed), with the partial index of "listed by others"
 *   now in page order: a page walks the newest listings and stops, instead of joining every
 *   order that lists the company to sort them (2,000 joins, 7 of the first page's 7.5 ms).
 */
export class Migration20261126010000_OrderBookCounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "order_status_count" ("company_id" uuid not null, "status" text not null, "payment_status" text not null, "orders" bigint not null default 0 check ("orders" >= 0), primary key ("company_id", "status", "payment_status"));`,
    );
    this.addSql(BUMP);
    this.addSql(`create function "count_order_statuses"() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform order_status_count_add(new.company_id, new.status, new.payment_status, 1);
  elsif tg_op = 'DELETE' then
    perform order_status_count_add(old.company_id, old.status, old.payment_status, -1);
  elsif (old.company_id, old.status, old.payment_status) < (new.company_id, new.status, new.payment_status) then
    perform order_status_count_add(old.company_id, old.status, old.payment_status, -1);
    perform order_status_count_add(new.company_id, new.status, new.payment_status, 1);
  elsif (old.company_id, old.status, old.payment_status) > (new.company_id, new.status, new.payment_status) then
    perform order_status_count_add(new.company_id, new.status, new.payment_status, 1);
    perform order_status_count_add(old.company_id, old.status, old.payment_status, -1);
  end if;
  return null;
end $$;`);
    this.addSql(
      `create constraint trigger "order_status_counted_insert" after insert on "insurance_order" deferrable initially deferred for each row execute function "count_order_statuses"();`,
    );
    this.addSql(
      `create constraint trigger "order_status_counted_delete" after delete on "insurance_order" deferrable initially deferred for each row execute function "count_order_statuses"();`,
    );
    this
      .addSql(`create constraint trigger "order_status_counted_update" after update of "company_id", "status", "payment_status" on "insurance_order" deferrable initially deferred for each row
  when (old.company_id is distinct from new.company_id or old.status is distinct from new.status or old.payment_status is distinct from new.payment_status)
  execute function "count_order_statuses"();`);
    this.addSql(
      `insert into "order_status_count" ("company_id", "status", "payment_status", "orders") select "company_id", "status", "payment_status", count(*) from "insurance_order" group by "company_id", "status", "payment_status";`,
    );

    this.addSql(`drop trigger if exists "order_counted_insert" on "insurance_order";`);
    this.addSql(`drop trigger if exists "order_counted_delete" on "insurance_order";`);
    this.addSql(`drop function if exists "count_orders"();`);
    this.addSql(`drop table if exists "order_count";`);

    this.addSql(`drop index if exists "insurance_order_book_departure_index";`);
    this.addSql(
      `create index "insurance_order_book_departure_index" on "insurance_order" ("company_id", "departure_date", "created_at" desc, "id" desc);`,
    );
    this.addSql(`drop index if exists "insurance_order_book_traveller_index";`);
    this.addSql(
      `create index "insurance_order_book_traveller_index" on "insurance_order" ("company_id", "traveller_id", "created_at" desc, "id" desc) include ("status", "payment_status");`,
    );

    this.addSql(`alter table "order_travel_company" add column "order_created_at" timestamptz;`);
    this.addSql(
      `update "order_travel_company" l set "order_created_at" = o."created_at" from "insurance_order" o where o."id" = l."order_id";`,
    );
    this.addSql(`alter table "order_travel_company" alter column "order_created_at" set not null;`);
    this.addSql(`create function "order_travel_company_created_at"() returns trigger language plpgsql as $$
begin
  new.order_created_at := (select o.created_at from insurance_order o where o.id = new.order_id);
  return new;
end $$;`);
    this.addSql(
      `create trigger "order_travel_company_created_at" before insert or update of "order_id" on "order_travel_company" for each row execute function "order_travel_company_created_at"();`,
    );
    this.addSql(`create function "order_created_at_listed"() returns trigger language plpgsql as $$
begin
  update order_travel_company l set order_created_at = new.created_at where l.order_id = new.id;
  return null;
end $$;`);
    this.addSql(
      `create trigger "order_created_at_listed" after update of "created_at" on "insurance_order" for each row when (old.created_at is distinct from new.created_at) execute function "order_created_at_listed"();`,
    );
    this.addSql(`drop index if exists "order_travel_company_listed_index";`);
    this.addSql(
      `create index "order_travel_company_listed_index" on "order_travel_company" ("company_id", "order_created_at" desc, "order_id" desc) where not "placer";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "order_travel_company_listed_index";`);
    this.addSql(
      `create index "order_travel_company_listed_index" on "order_travel_company" ("company_id", "order_id") where not "placer";`,
    );
    this.addSql(`drop trigger if exists "order_created_at_listed" on "insurance_order";`);
    this.addSql(`drop function if exists "order_created_at_listed"();`);
    this.addSql(`drop trigger if exists "order_travel_company_created_at" on "order_travel_company";`);
    this.addSql(`drop function if exists "order_travel_company_created_at"();`);
    this.addSql(`alter table "order_travel_company" drop column if exists "order_created_at";`);

    this.addSql(`drop index if exists "insurance_order_book_departure_index";`);
    this.addSql(
      `create index "insurance_order_book_departure_index" on "insurance_order" ("company_id", "departure_date");`,
    );
    this.addSql(`drop index if exists "insurance_order_book_traveller_index";`);
    this.addSql(
      `create index "insurance_order_book_traveller_index" on "insurance_order" ("company_id", "traveller_id", "created_at" desc, "id" desc);`,
    );

    // Migration OrderBook's counter, as it made it.
    this.addSql(
      `create table "order_count" ("company_id" uuid not null primary key, "orders" bigint not null default 0 check ("orders" >= 0));`,
    );
    this.addSql(`create function "count_orders"() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    update order_count c set orders = c.orders - d.n
      from (select company_id, count(*) as n from old_rows group by company_id) d where c.company_id = d.company_id;
  end if;
  if tg_op = 'INSERT' then
    insert into order_count (company_id, orders)
      select company_id, count(*) from new_rows group by company_id order by company_id
      on conflict (company_id) do update set orders = order_count.orders + excluded.orders;
  end if;
  return null;
end $$;`);
    this.addSql(
      `create trigger "order_counted_insert" after insert on "insurance_order" referencing new table as new_rows for each statement execute function "count_orders"();`,
    );
    this.addSql(
      `create trigger "order_counted_delete" after delete on "insurance_order" referencing old table as old_rows for each statement execute function "count_orders"();`,
    );
    this.addSql(
      `insert into "order_count" ("company_id", "orders") select "company_id", count(*) from "insurance_order" group by "company_id";`,
    );

    for (const trigger of [
      'order_status_counted_insert',
      'order_status_counted_delete',
      'order_status_counted_update',
    ]) {
      this.addSql(`drop trigger if exists "${trigger}" on "insurance_order";`);
    }
    this.addSql(`drop function if exists "count_order_statuses"();`);
    this.addSql(`drop function if exists "order_status_count_add"(uuid, text, text, bigint);`);
    this.addSql(`drop table if exists "order_status_count";`);
  }
}
