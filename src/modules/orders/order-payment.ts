import { OrderStatus, type Order } from './entities/order';

/**
 * An order becomes PAID: orders writes its own rows (decision record 0111), payments' capture
 * (settlement.ts) and cash record (cash-settlement.ts) call this in their transaction, with the
 * order locked.
 */
export function markOrderPaid(order: Order, at: Date): void {
  order.status = OrderStatus.Paid;
  order.paidAt = at;
}
