import { Migration } from '@mikro-orm/migrations';

/**
 * An extension whose top-up ended unpaid (declined, cancelled, expired) expires with its checkout
 * (decision record 0099): `EXPIRED`, written when the checkout ends, in place of `CLOSED`, which
 * the next extension request wrote.
 */
export class Migration20261221010000_AmendmentExpired extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "order_amendment" drop constraint if exists "order_amendment_status_check";`);
    this.addSql(`update "order_amendment" set "status" = 'EXPIRED' where "status" = 'CLOSED';`);
    this.addSql(
      `alter table "order_amendment" add constraint "order_amendment_status_check" check ("status" in ('AWAITING_PAYMENT', 'APPLIED', 'NOT_APPLIED', 'EXPIRED'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "order_amendment" drop constraint if exists "order_amendment_status_check";`);
    this.addSql(`update "order_amendment" set "status" = 'CLOSED' where "status" = 'EXPIRED';`);
    this.addSql(
      `alter table "order_amendment" add constraint "order_amendment_status_check" check ("status" in ('AWAITING_PAYMENT', 'APPLIED', 'NOT_APPLIED', 'CLOSED'));`,
    );
  }
}
