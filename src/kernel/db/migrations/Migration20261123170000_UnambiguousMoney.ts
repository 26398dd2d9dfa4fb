import { Migration } from '@mikro-orm/migrations';

/** Every money column, by table: numeric(12,2) until now. */
const MONEY_COLUMNS: Record<string, string[]> = {
  ctg: ['base_ctg_price', 'extra_day_price'],
  quote: ['ctg_price_for_duration', 'total_amount'],
  promo_code: ['discount_amount'],
  insurance_order: [
    'package_price',
    'company_promo_discount',
    'agent_promo_discount',
    'direct_discount_amount',
    'total_amount',
  ],
  payment_attempt: ['amount', 'refund_amount'],
  payment_attempt_order: ['amount'],
  sandbox_gateway_payment: ['amount'],
};

const widen = (precision: number) =>
  Object.entries(MONEY_COLUMNS).map(
    ([table, columns]) =>
      `alter table "${table}" ${columns.map((column) => `alter column "${column}" type numeric(${precision},2)`).join(', ')};`,
  );

/**
 * Money is never ambiguous:
 * - money columns widen to numeric(14,2), so the largest valid 50-order group (every amount at
 *   its documented maximum, src/kernel/amount-limits.ts) fits;
 * - each order's share of an attempt records what the capture did with it (`settlement`: PAID, or
 *   REFUND_PENDING / REFUNDED when it could not pay its order), and an attempt whose capture paid
 *   nothing reads REFUND_PENDING instead of SUCCESS;
 * - the operator's record of a refund (`refunded_at`, `refund_note`).
 */
export class Migration20261123170000_UnambiguousMoney extends Migration {
  override async up(): Promise<void> {
    for (const sql of widen(14)) this.addSql(sql);

    this.addSql(`alter table "payment_attempt_order" add column "settlement" text null;`);
    this.addSql(
      `alter table "payment_attempt_order" add constraint "payment_attempt_order_settlement_check" check ("settlement" in ('PAID', 'REFUND_PENDING', 'REFUNDED'));`,
    );
    this.addSql(
      `alter table "payment_attempt" add column "refunded_at" timestamptz null, add column "refund_note" text null;`,
    );
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_status_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_status_check" check ("status" in ('INITIATED', 'SUCCESS', 'FAILED', 'CANCELLED', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED'));`,
    );

    // Captures recorded before: a share paid its order when the order is paid and the attempt kept
    // money for it (refund_amount below the amount); the rest was owed back.
    this.addSql(`update "payment_attempt_order" pao set "settlement" = case
        when o."status" in ('PAID', 'COMPLETED') and a."refund_amount" < a."amount" and o."paid_at" = a."completed_at" then 'PAID'
        else 'REFUND_PENDING' end
      from "payment_attempt" a, "insurance_order" o
      where a."id" = pao."attempt_id" and o."id" = pao."order_id" and a."status" = 'SUCCESS';`);
    this.addSql(`update "payment_attempt" a set "status" = 'REFUND_PENDING'
      where a."status" = 'SUCCESS' and not exists (select 1 from "payment_attempt_order" pao where pao."attempt_id" = a."id" and pao."settlement" = 'PAID');`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "payment_attempt" set "status" = 'SUCCESS' where "status" in ('REFUND_PENDING', 'REFUNDED');`);
    this.addSql(`alter table "payment_attempt" drop constraint "payment_attempt_status_check";`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_status_check" check ("status" in ('INITIATED', 'SUCCESS', 'FAILED', 'CANCELLED', 'EXPIRED'));`,
    );
    this.addSql(`alter table "payment_attempt" drop column "refunded_at", drop column "refund_note";`);
    this.addSql(`alter table "payment_attempt_order" drop column "settlement";`);
    for (const sql of widen(12)) this.addSql(sql);
  }
}
