import { Migration } from '@mikro-orm/migrations';

/** A promo change on an order with an open payment attempt closes that attempt as ORDER_REPRICED. */
export class Migration20261123150000_RepricedAttempts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_closed_reason_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_closed_reason_check" check ("closed_reason" in ('SUPERSEDED', 'EXPIRED', 'ORDER_PAID', 'ORDER_REPRICED'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_closed_reason_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_closed_reason_check" check ("closed_reason" in ('SUPERSEDED', 'EXPIRED', 'ORDER_PAID'));`,
    );
  }
}
