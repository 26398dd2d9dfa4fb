/**
 * The last day an order may be paid (decision record 0076): the cover's start
 * day itself, Nepal date. Money taken later would buy a window that began before the premium was
 * paid, so the accident could already have happened: a cover bought after the fact.
 */

/** The cover's first day, as the rule reads an order. */
export interface CoverStart {
  orderRef: string;
  coverageStartDate: string;
}

/** Whether `today` (Nepal) is past the order's last payable day. */
export const coverStartPassed = (order: CoverStart, today: string): boolean => order.coverageStartDate < today;

/** Why the order can no longer be paid on `today`, or null while it can. */
export function paymentDeadlineRefusal(order: CoverStart, today: string): string | null {
  if (!coverStartPassed(order, today)) return null;
  return `The cover of order ${order.orderRef} started on ${order.coverageStartDate} (Nepal date) and it was not paid by the end of that day; it can no longer be paid: book the trip anew`;
}
