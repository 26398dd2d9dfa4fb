import { Migration } from '@mikro-orm/migrations';

/** The payment status an order's reader sees (GET /orders/{orderRef}/payment-status without its gateway lookup). */
const PAYMENT_STATUS_OF = `create function "order_payment_status"(p_order uuid, p_order_status text) returns text language sql volatile as $$
  select coalesce((
    select case when line.settlement = 'PAID' then 'SUCCESS' when line.settlement is not null then line.settlement else attempt.status end
    from payment_attempt_order line
    join payment_attempt attempt on attempt.id = line.attempt_id
    where line.order_id = p_order
    order by coalesce(p_order_status in ('PAID', 'COMPLETED', 'CLOSED') and line.settlement = 'PAID', false) desc, attempt.created_at desc
    limit 1
  ), 'NOT_INITIATED')
$$;`;

/**
 * The partner's order book (GET /orders, issue 29) at 1,000,000 orders of one company:
 *
 * - `payment_status` on the order, so the `paymentStatus` filter and its exact count are index
 *   reads. Kept by triggers in the transaction of every change that moves it (a payment attempt's
 *   status, a share's settlement, the order's own status); the value is the one
 *   `payment-status` reports, without its gateway lookup. The attempt triggers update the order
 *   row only when the value changes; pay, callback and reconciliation hold the order's row lock
 *   by then (they lock orders before attempts).
 * - `order_count`: each company's order count, kept by statement triggers like traveller_count,
 *   so the unfiltered `totalElements` is one row, not a count of a million.
 * - `order_travel_company.placer`: whether the listed agency placed the order itself (a travel
 *   agency is put on each of its own orders), so "orders I am listed on by others" is a partial
 *   index scan instead of a walk over every own order.
 * - `fold_text`: lower case without accents (immutable, so it can be indexed), for the name search.
 */
export class Migration20261125220000_OrderBook extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists unaccent;`);
    this.addSql(
      `create function "fold_text"(text) returns text language sql immutable parallel safe strict as $$ select lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;`,
    );
    this.addSql(
      `create index "traveller_name_folded_trgm_index" on "traveller" using gin (fold_text("name") gin_trgm_ops);`,
    );

    this.addSql(
      `alter table "insurance_order" add column "payment_status" text not null default 'NOT_INITIATED' check ("payment_status" in ('NOT_INITIATED', 'INITIATED', 'SUCCESS', 'FAILED', 'CANCELLED', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED'));`,
    );
    this.addSql(PAYMENT_STATUS_OF);
    this.addSql(
      `update "insurance_order" o set "payment_status" = order_payment_status(o.id, o.status) where exists (select 1 from payment_attempt_order line where line.order_id = o.id);`,
    );
    this.addSql(`create function "order_payment_status_by_order"() returns trigger language plpgsql as $$
begin
  new.payment_status := order_payment_status(new.id, new.status);
  return new;
end $$;`);
    this.addSql(
      `create trigger "order_payment_status_on_status" before update of "status" on "insurance_order" for each row when (old.status is distinct from new.status) execute function "order_payment_status_by_order"();`,
    );
    this.addSql(`create function "order_payment_status_by_line"() returns trigger language plpgsql as $$
begin
  update insurance_order o set payment_status = order_payment_status(o.id, o.status)
    where o.id = new.order_id and o.payment_status is distinct from order_payment_status(o.id, o.status);
  return null;
end $$;`);
    this.addSql(
      `create trigger "order_payment_status_on_line" after insert or update of "settlement" on "payment_attempt_order" for each row execute function "order_payment_status_by_line"();`,
    );
    this.addSql(`create function "order_payment_status_by_attempt"() returns trigger language plpgsql as $$
begin
  update insurance_order o set payment_status = order_payment_status(o.id, o.status)
    where o.id in (select line.order_id from payment_attempt_order line where line.attempt_id = new.id)
      and o.payment_status is distinct from order_payment_status(o.id, o.status);
  return null;
end $$;`);
    this.addSql(
      `create trigger "order_payment_status_on_attempt" after update of "status" on "payment_attempt" for each row when (old.status is distinct from new.status) execute function "order_payment_status_by_attempt"();`,
    );

    // Newest first with id as the tie-break, alone and under each filter of the order book.
    this.addSql(
      `create index "insurance_order_book_index" on "insurance_order" ("company_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "insurance_order_book_status_index" on "insurance_order" ("company_id", "status", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "insurance_order_book_payment_status_index" on "insurance_order" ("company_id", "payment_status", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `create index "insurance_order_book_departure_index" on "insurance_order" ("company_id", "departure_date");`,
    );
    // touristId, and the name search (travellers by trigram, then their orders): index-only per traveller.
    this.addSql(
      `create index "insurance_order_book_traveller_index" on "insurance_order" ("company_id", "traveller_id", "created_at" desc, "id" desc);`,
    );

    this.addSql(`alter table "order_travel_company" add column "placer" boolean not null default false;`);
    this.addSql(
      `update "order_travel_company" l set "placer" = true from "insurance_order" o where o.id = l.order_id and o.company_id = l.company_id;`,
    );
    this.addSql(
      `create index "order_travel_company_listed_index" on "order_travel_company" ("company_id", "order_id") where not "placer";`,
    );

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
    // No update trigger: an order never changes company, and one would lock the company's counter row on every order update.
    this.addSql(
      `create trigger "order_counted_delete" after delete on "insurance_order" referencing old table as old_rows for each statement execute function "count_orders"();`,
    );
    this.addSql(
      `insert into "order_count" ("company_id", "orders") select "company_id", count(*) from "insurance_order" group by "company_id";`,
    );
  }

  override async down(): Promise<void> {
    for (const trigger of ['order_counted_insert', 'order_counted_delete', 'order_payment_status_on_status']) {
      this.addSql(`drop trigger if exists "${trigger}" on "insurance_order";`);
    }
    this.addSql(`drop trigger if exists "order_payment_status_on_line" on "payment_attempt_order";`);
    this.addSql(`drop trigger if exists "order_payment_status_on_attempt" on "payment_attempt";`);
    for (const fn of [
      'count_orders',
      'order_payment_status_by_order',
      'order_payment_status_by_line',
      'order_payment_status_by_attempt',
    ])
      this.addSql(`drop function if exists "${fn}"();`);
    this.addSql(`drop function if exists "order_payment_status"(uuid, text);`);
    this.addSql(`drop table if exists "order_count";`);
    this.addSql(`drop index if exists "order_travel_company_listed_index";`);
    this.addSql(`alter table "order_travel_company" drop column if exists "placer";`);
    for (const index of [
      'insurance_order_book_index',
      'insurance_order_book_status_index',
      'insurance_order_book_payment_status_index',
      'insurance_order_book_departure_index',
      'insurance_order_book_traveller_index',
    ]) {
      this.addSql(`drop index if exists "${index}";`);
    }
    this.addSql(`alter table "insurance_order" drop column if exists "payment_status";`);
    this.addSql(`drop index if exists "traveller_name_folded_trgm_index";`);
    this.addSql(`drop function if exists "fold_text"(text);`);
  }
}
