import { Migration } from '@mikro-orm/migrations';

export class Migration20261123140000_Payments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "payment_attempt" ("id" uuid not null, "payment_ref" text not null, "company_id" uuid not null, "scope" text check ("scope" in ('ORDER', 'GROUP')) not null, "group_id" uuid null, "gateway" text check ("gateway" in ('card_gateway', 'wallet_gateway')) not null, "status" text check ("status" in ('INITIATED', 'SUCCESS', 'FAILED', 'CANCELLED', 'EXPIRED')) not null default 'INITIATED', "amount" numeric(12,2) not null, "currency" text not null, "return_url" text null, "idempotency_key" uuid not null, "request_fingerprint" text not null, "expires_at" timestamptz not null, "completed_at" timestamptz null, "closed_reason" text check ("closed_reason" in ('SUPERSEDED', 'EXPIRED', 'ORDER_PAID')) null, "superseded_by" text null, "gateway_transaction_id" text null, "gateway_confirmed_at" timestamptz null, "failure_reason" text null, "refund_amount" numeric(12,2) not null default 0, "refund_reason" text null, "last_checked_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "payment_attempt_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_payment_ref_unique" unique ("payment_ref");`,
    );
    // The idempotency key is scoped to the company; this constraint is the database's last word
    // when requests with one key race from several processes (the advisory lock makes it rare).
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_company_id_idempotency_key_unique" unique ("company_id", "idempotency_key");`,
    );
    this.addSql(`create index "payment_attempt_open_index" on "payment_attempt" ("status", "created_at");`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_amount_check" check ("amount" >= 0 and "refund_amount" >= 0 and "refund_amount" <= "amount");`,
    );
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_group_scope_check" check (("scope" = 'GROUP') = ("group_id" is not null));`,
    );

    this.addSql(
      `create table "payment_attempt_order" ("attempt_id" uuid not null, "order_id" uuid not null, "amount" numeric(12,2) not null, constraint "payment_attempt_order_pkey" primary key ("attempt_id", "order_id"));`,
    );
    this.addSql(`create index "payment_attempt_order_order_id_index" on "payment_attempt_order" ("order_id");`);

    this.addSql(
      `create table "sandbox_gateway_payment" ("payment_ref" text not null, "gateway" text check ("gateway" in ('card_gateway', 'wallet_gateway')) not null, "status" text check ("status" in ('SUCCESS', 'FAILED', 'CANCELLED')) not null, "reason" text null, "amount" numeric(12,2) not null, "currency" text not null, "transaction_id" text not null, "instrument" text null, "decided_at" timestamptz not null, constraint "sandbox_gateway_payment_pkey" primary key ("payment_ref"));`,
    );
    this.addSql(
      `alter table "sandbox_gateway_payment" add constraint "sandbox_gateway_payment_transaction_id_unique" unique ("transaction_id");`,
    );

    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_group_id_foreign" foreign key ("group_id") references "order_group" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "payment_attempt_order" add constraint "payment_attempt_order_attempt_id_foreign" foreign key ("attempt_id") references "payment_attempt" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "payment_attempt_order" add constraint "payment_attempt_order_order_id_foreign" foreign key ("order_id") references "insurance_order" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    for (const table of ['payment_attempt_order', 'payment_attempt', 'sandbox_gateway_payment'])
      this.addSql(`drop table if exists "${table}" cascade;`);
  }
}
