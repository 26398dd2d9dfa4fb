import { Migration } from '@mikro-orm/migrations';

/**
 * A sandbox gateway may hold a payment PENDING (decision record 0090): the sandbox helper's
 * `PENDING` outcome, no decision yet, which a later helper call replaces with one.
 */
export class Migration20261211100000_SandboxPendingPayment extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "sandbox_gateway_payment" drop constraint if exists "sandbox_gateway_payment_status_check";`,
    );
    this.addSql(
      `alter table "sandbox_gateway_payment" add constraint "sandbox_gateway_payment_status_check" check ("status" in ('SUCCESS', 'FAILED', 'CANCELLED', 'PENDING'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "sandbox_gateway_payment" where "status" = 'PENDING';`);
    this.addSql(
      `alter table "sandbox_gateway_payment" drop constraint if exists "sandbox_gateway_payment_status_check";`,
    );
    this.addSql(
      `alter table "sandbox_gateway_payment" add constraint "sandbox_gateway_payment_status_check" check ("status" in ('SUCCESS', 'FAILED', 'CANCELLED'));`,
    );
  }
}
