import { Migration } from '@mikro-orm/migrations';

/**
 * The commission ledger (decision record 0074): one row per earner per event, written
 * in the transaction of the payment or refund that causes it. Append-only: a trigger refuses every
 * UPDATE and DELETE, so a closed month's statement cannot change even by a stray SQL statement.
 * A sales agent gains its own commissionPercent (default 0: agents earn only once an operator
 * sets it). Each company's closed months are noted once, with the event that tells it.
 */
export class Migration20261203150000_CommissionLedger extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "sales_agent" add column "commission_percent" numeric(5,2) not null default 0 check ("commission_percent" between 0 and 100);`,
    );
    this.addSql(`create table "commission_entry" (
  "id" uuid not null primary key,
  "kind" text not null check ("kind" in ('EARNED', 'REVERSED')),
  "company_id" uuid not null references "company" ("id"),
  "agent_id" uuid null references "sales_agent" ("id"),
  "role" text not null check ("role" in ('SELLER', 'LISTED_AGENCY', 'CODE_OWNER', 'AGENT')),
  "order_id" uuid not null references "insurance_order" ("id"),
  "policy_number" text null,
  "payment_ref" text not null,
  "refund_ref" text null,
  "currency" text not null,
  "share" numeric(14,2) not null check ("share" >= 0),
  "base" numeric(14,2) not null check ("base" >= 0),
  "percent" numeric(5,2) not null check ("percent" between 0 and 100),
  "cap_percent" numeric(5,2) not null,
  "capped" boolean not null,
  "amount" numeric(14,2) not null,
  "refunded" numeric(14,2) null check ("refunded" > 0),
  "occurred_at" timestamptz not null,
  "period" char(7) not null,
  "created_at" timestamptz not null,
  check (("kind" = 'EARNED' and "amount" >= 0 and "refund_ref" is null and "refunded" is null) or ("kind" = 'REVERSED' and "amount" <= 0 and "refund_ref" is not null and "refunded" is not null)),
  check (("role" = 'AGENT') = ("agent_id" is not null))
);`);
    // A statement reads one company's month in order; an order's detail reads its lines.
    // Kind and amount ride along, so a month's totals are summed from the index alone.
    this.addSql(
      `create index "commission_entry_statement_index" on "commission_entry" ("company_id", "period", "occurred_at", "id") include ("kind", "amount");`,
    );
    this.addSql(`create index "commission_entry_order_index" on "commission_entry" ("order_id");`);
    // A payment earns once per earner, a refund reverses once per earner: a replayed event writes nothing twice.
    this.addSql(
      `create unique index "commission_entry_earned_once" on "commission_entry" ("payment_ref", "order_id", "role", "company_id") where "kind" = 'EARNED';`,
    );
    this.addSql(
      `create unique index "commission_entry_reversed_once" on "commission_entry" ("refund_ref", "order_id", "role", "company_id") where "kind" = 'REVERSED';`,
    );
    this.addSql(`create function "commission_entry_append_only"() returns trigger language plpgsql as $$
begin
  raise exception 'commission entries are never changed or deleted: record a REVERSED entry instead' using errcode = 'restrict_violation';
end $$;`);
    this.addSql(
      `create trigger "commission_entry_append_only" before update or delete on "commission_entry" for each row execute function "commission_entry_append_only"();`,
    );
    // Which company heard that which month closed: the primary key makes commission.period_closed once per company and month, whichever process closes it.
    this.addSql(
      `create table "commission_period_close" ("company_id" uuid not null references "company" ("id"), "period" char(7) not null, "closed_at" timestamptz not null, primary key ("company_id", "period"));`,
    );
    this.addSql(
      `create trigger "commission_entry_no_truncate" before truncate on "commission_entry" for each statement execute function "commission_entry_append_only"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "commission_period_close";`);
    this.addSql(`drop table if exists "commission_entry";`);
    this.addSql(`drop function if exists "commission_entry_append_only"();`);
    this.addSql(`alter table "sales_agent" drop column if exists "commission_percent";`);
  }
}
