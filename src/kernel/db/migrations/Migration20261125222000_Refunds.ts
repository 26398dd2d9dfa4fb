import { Migration } from '@mikro-orm/migrations';

/**
 * Refunds as records of their own (decision record 0062): `RFD-<year>-<seq>` from their
 * own sequence; at most one refund per share of a payment for a cancellation or a late capture
 * (reversals the provider reports may come in parts). What was owed back before this migration
 * becomes records too: a share still REFUND_PENDING is a PENDING refund (the executor refunds it
 * where the provider can, else it turns MANUAL); one an operator recorded as REFUNDED is a
 * SUCCEEDED refund with the operator's note and time.
 */
export class Migration20261125222000_Refunds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create sequence "refund_ref_seq" as bigint start 1;`);
    this.addSql(`create table "refund" (
      "id" uuid not null,
      "refund_ref" text not null,
      "order_id" uuid not null references "insurance_order" ("id"),
      "attempt_id" uuid not null references "payment_attempt" ("id"),
      "cause" text not null check ("cause" in ('CANCELLATION', 'LATE_CAPTURE', 'PROVIDER_REVERSAL')),
      "amount" numeric(14,2) not null check ("amount" >= 0),
      "fee" numeric(14,2) not null default 0 check ("fee" >= 0),
      "currency" text not null,
      "status" text not null default 'PENDING' check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED', 'MANUAL')),
      "gateway" text not null check ("gateway" in ('card_gateway', 'wallet_gateway', 'cash')),
      "provider" text null,
      "provider_refund_ref" text null,
      "tries" integer not null default 0,
      "next_try_at" timestamptz null,
      "last_error" text null,
      "completed_at" timestamptz null,
      "note" text null,
      "actor" text not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "refund_pkey" primary key ("id"),
      constraint "refund_refund_ref_unique" unique ("refund_ref"));`);
    this.addSql(`create index "refund_due_index" on "refund" ("status", "next_try_at");`);
    this.addSql(`create index "refund_order_id_index" on "refund" ("order_id");`);
    this.addSql(
      `create unique index "refund_one_per_share_unique" on "refund" ("attempt_id", "order_id") where "cause" <> 'PROVIDER_REVERSAL';`,
    );
    this.addSql(`with owed as (
        select l."attempt_id", l."order_id", l."amount", l."settlement", a."currency", a."gateway", a."refunded_at", a."refund_note",
               coalesce(a."completed_at", a."created_at") as "owed_at"
          from "payment_attempt_order" l join "payment_attempt" a on a."id" = l."attempt_id"
         where l."settlement" in ('REFUND_PENDING', 'REFUNDED')
         order by coalesce(a."completed_at", a."created_at"), a."id", l."order_id"),
      numbered as (select owed.*, nextval('refund_ref_seq') as seq from owed)
      insert into "refund" ("id", "refund_ref", "order_id", "attempt_id", "cause", "amount", "fee", "currency", "status", "gateway",
                            "next_try_at", "completed_at", "note", "actor", "created_at", "updated_at")
      select gen_random_uuid(), 'RFD-' || to_char(n."owed_at" at time zone 'Asia/Kathmandu', 'YYYY') || '-' || lpad(n.seq::text, 6, '0'),
             n."order_id", n."attempt_id", 'LATE_CAPTURE', n."amount", 0, n."currency",
             case when n."settlement" = 'REFUNDED' then 'SUCCEEDED' else 'PENDING' end, n."gateway",
             case when n."settlement" = 'REFUNDED' then null else now() end,
             case when n."settlement" = 'REFUNDED' then coalesce(n."refunded_at", now()) else null end,
             n."refund_note", 'migration', n."owed_at", now()
        from numbered n;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "refund";`);
    this.addSql(`drop sequence if exists "refund_ref_seq";`);
  }
}
