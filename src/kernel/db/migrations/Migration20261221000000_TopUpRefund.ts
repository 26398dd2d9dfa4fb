import { Migration } from '@mikro-orm/migrations';

/**
 * A refund of an extension's top-up on its own, made by the operator (`ops refund top-up`,
 * decision record 0099): a refund cause of its own, `TOP_UP_REFUND`.
 */
export class Migration20261221000000_TopUpRefund extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refund" drop constraint if exists "refund_cause_check";`);
    this.addSql(
      `alter table "refund" add constraint "refund_cause_check" check ("cause" in ('CANCELLATION', 'LATE_CAPTURE', 'PROVIDER_REVERSAL', 'TOP_UP_REFUND'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "refund" drop constraint if exists "refund_cause_check";`);
    this.addSql(
      `alter table "refund" add constraint "refund_cause_check" check ("cause" in ('CANCELLATION', 'LATE_CAPTURE', 'PROVIDER_REVERSAL'));`,
    );
  }
}
