import { Migration } from '@mikro-orm/migrations';

/**
 * How each order was cancelled (reason, note, when, by whom), and the idempotency record of a
 * partner's cancellation request. Orders an operator cancelled before this migration get a row
 * from their audit entry (reason OPERATOR).
 */
export class Migration20261125222100_OrderCancellations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "order_cancellation" (
      "id" uuid not null,
      "created_at" timestamptz not null,
      "order_id" uuid not null references "insurance_order" ("id"),
      "reason" text not null,
      "note" text null,
      "cancelled_at" timestamptz not null,
      "actor" text not null,
      "company_id" uuid null references "company" ("id"),
      "idempotency_key" uuid null,
      "request_fingerprint" text null,
      constraint "order_cancellation_pkey" primary key ("id"),
      constraint "order_cancellation_order_id_unique" unique ("order_id"),
      constraint "order_cancellation_company_id_idempotency_key_unique" unique ("company_id", "idempotency_key"));`);
    this
      .addSql(`insert into "order_cancellation" ("id", "created_at", "order_id", "reason", "note", "cancelled_at", "actor")
      select gen_random_uuid(), now(), o."id", 'OPERATOR', null, coalesce(a."at", o."updated_at"), coalesce(a."actor", 'migration')
        from "insurance_order" o
        left join lateral (select "at", "actor" from "audit_entry" e where e."order_id" = o."id" and e."action" = 'ORDER_CANCELLED' order by "at" desc limit 1) a on true
       where o."status" = 'CANCELLED';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_cancellation";`);
  }
}
