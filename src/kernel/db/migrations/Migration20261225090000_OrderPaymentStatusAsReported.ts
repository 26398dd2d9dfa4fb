import { Migration } from '@mikro-orm/migrations';

/** The statuses of a paid order, as `PAID_ORDER_STATUSES` in orders/entities/order.ts names them. */
const PAID = `('PAID', 'COMPLETED', 'CLOSED')`;

/** The function over the order's shares, the reported one first by `orderBy`: its settlement, else its attempt's status. */
const paymentStatusFunction = (orderBy: string) =>
  `create or replace function "order_payment_status"(p_order uuid, p_order_status text) returns text language sql volatile as $$
  select coalesce((
    select case when line.settlement = 'PAID' then 'SUCCESS' when line.settlement is not null then line.settlement else attempt.status end
    from payment_attempt_order line
    join payment_attempt attempt on attempt.id = line.attempt_id
    where line.order_id = p_order
    order by ${orderBy}
    limit 1
  ), 'NOT_INITIATED')
$$;`;

/**
 * `order_payment_status` (the order's `payment_status` column, docs/database-behaviour.md) chooses
 * the share GET /orders/{orderRef}/payment-status reports (payment-status.ts `reportedShare`,
 * decision record 0105): on a paid order the first share that paid it, not a later extension's
 * top-up; on a cancelled order that was paid, the share its cancellation's (or the provider's
 * reversal's) refund gives back; otherwise the most recent. Before, a cancelled order that had
 * been extended read the top-up's SUCCESS in the order book while payment-status read
 * REFUND_PENDING. Same signature, so the triggers that call it are unchanged; the orders it now
 * reads differently (cancelled, with such a refund) are recomputed.
 * test/payments/payment-status-cases.test.ts holds the two to one table of cases.
 */
export class Migration20261225090000_OrderPaymentStatusAsReported extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      paymentStatusFunction(`
      coalesce(p_order_status in ${PAID} and line.settlement = 'PAID', false) desc,
      case when p_order_status in ${PAID} and line.settlement = 'PAID' then attempt.created_at end asc,
      (p_order_status = 'CANCELLED'
        and exists (select 1 from insurance_order o where o.id = p_order and o.paid_at is not null)
        and exists (select 1 from refund r where r.order_id = p_order and r.attempt_id = line.attempt_id
                      and r.cause in ('CANCELLATION', 'PROVIDER_REVERSAL'))) desc,
      attempt.created_at desc`),
    );
    this.addSql(`update "insurance_order" o set "payment_status" = order_payment_status(o.id, o.status)
  where o.status = 'CANCELLED' and exists (select 1 from refund r where r.order_id = o.id)
    and o.payment_status is distinct from order_payment_status(o.id, o.status);`);
  }

  override async down(): Promise<void> {
    this.addSql(
      paymentStatusFunction(
        `coalesce(p_order_status in ${PAID} and line.settlement = 'PAID', false) desc, attempt.created_at desc`,
      ),
    );
  }
}
