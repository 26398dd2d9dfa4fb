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

/**
 * A fact printed on an insured order's certificate changed (a passport name added): the order is
 * amended, its certificate re-versioned. Travellers calls this in its transaction.
 */
export function markOrderAmended(order: Order, at: Date): void {
  order.amendedAt = at;
}

/** The policy number and check code certificates issues into the order in that same transaction. */
export function recordPolicyNumber(order: Order, policyNumber: string, verificationCode: string): void {
  order.policyNumber = policyNumber;
  order.verificationCode = verificationCode;
}
