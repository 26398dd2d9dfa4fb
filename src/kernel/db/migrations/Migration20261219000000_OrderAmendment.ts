import { Migration } from '@mikro-orm/migrations';

/**
 * Extensions of a paid order's cover (decision record 0099): one row per extension, at most one
 * awaiting its top-up per order.
 */
export class Migration20261219000000_OrderAmendment extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "order_amendment" (
      "id" uuid not null constraint "order_amendment_pkey" primary key,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "amendment_ref" text not null constraint "order_amendment_amendment_ref_unique" unique,
      "order_id" uuid not null references "insurance_order" ("id"),
      "kind" text not null check ("kind" in ('EXTENSION')),
      "status" text not null check ("status" in ('AWAITING_PAYMENT', 'APPLIED', 'NOT_APPLIED', 'CLOSED')),
      "previous_coverage_end_date" date not null,
      "coverage_end_date" date not null,
      "duration_days" int not null,
      "new_premium" numeric(14,2) not null check ("new_premium" >= 0),
      "amount_due" numeric(14,2) not null check ("amount_due" >= 0),
      "payment_ref" text null constraint "order_amendment_payment_ref_unique" unique,
      "applied_at" timestamptz null,
      "idempotency_key" uuid null,
      "request_fingerprint" text null,
      constraint "order_amendment_order_id_idempotency_key_unique" unique ("order_id", "idempotency_key")
    );`);
    this.addSql(`create index "order_amendment_order_id_index" on "order_amendment" ("order_id");`);
    this.addSql(
      `create unique index "order_amendment_one_open_index" on "order_amendment" ("order_id") where "status" = 'AWAITING_PAYMENT';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "order_amendment";`);
  }
}
