import { Migration } from '@mikro-orm/migrations';

/**
 * Operator order commands: the audit log of hand-made changes, cash recorded as a payment attempt
 * with gateway `cash`, and attempts closed because an operator cancelled their order.
 */
export class Migration20261123160000_OperatorOrderCommands extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "audit_entry" ("id" uuid not null, "at" timestamptz not null, "actor" text not null, "action" text not null, "order_id" uuid null, "order_ref" text null, "details" jsonb not null default '{}', constraint "audit_entry_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "audit_entry" add constraint "audit_entry_order_id_foreign" foreign key ("order_id") references "insurance_order" ("id") on update cascade;`,
    );
    this.addSql(`create index "audit_entry_order_id_at_index" on "audit_entry" ("order_id", "at");`);

    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_gateway_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_gateway_check" check ("gateway" in ('card_gateway', 'wallet_gateway', 'cash'));`,
    );
    // A cash record pays one order, is never open, and carries its own final word.
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_cash_check" check ("gateway" <> 'cash' or ("scope" = 'ORDER' and "status" = 'SUCCESS' and "gateway_confirmed_at" is not null));`,
    );
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_closed_reason_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_closed_reason_check" check ("closed_reason" in ('SUPERSEDED', 'EXPIRED', 'ORDER_PAID', 'ORDER_REPRICED', 'ORDER_CANCELLED'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_closed_reason_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_closed_reason_check" check ("closed_reason" in ('SUPERSEDED', 'EXPIRED', 'ORDER_PAID', 'ORDER_REPRICED'));`,
    );
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_cash_check";`);
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_gateway_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_gateway_check" check ("gateway" in ('card_gateway', 'wallet_gateway'));`,
    );
    this.addSql(`drop table if exists "audit_entry" cascade;`);
  }
}
