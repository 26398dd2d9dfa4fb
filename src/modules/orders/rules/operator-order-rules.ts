import { decimalStringFromMinor, type Minor } from '../../../kernel/money';

/**
 * What an operator may do to an order from the command line: record the cash a CASH order was
 * paid with (cancelling follows rules/cancellation.ts, as for partners). Pure rules; the services lock the rows and apply them.
 */

export interface OrderFacts {
  orderRef: string;
  status: string;
  settlementType: string;
  totalAmount: Minor;
  currency: string;
  paidAt?: Date | null;
}

/** How the operator records cash: `today` is the Nepal date; `forced` with a note takes cash after the cover's first day. */
export interface CashRecording {
  amount: Minor;
  today: string;
  forced?: boolean;
}

/**
 * Why cash cannot be recorded for an order, or null when it can: a PENDING CASH order, exactly
 * its current total (a partial or rounded amount would leave the order paid for a different
 * price than it carries), and no later than its cover's first day (Nepal date) unless the
 * operator forces it: cash handed over on the trek's first day may reach the office later, and
 * the operator can know it was paid in time where the service cannot.
 */
export function cashSettlementRefusal(
  order: OrderFacts & { coverageStartDate: string },
  { amount, today, forced = false }: CashRecording,
): string | null {
  const refusal = cashOrderRefusal(order, amount);
  if (refusal) return refusal;
  if (order.coverageStartDate < today && !forced) {
    return `the cover of order ${order.orderRef} started on ${order.coverageStartDate} (Nepal date); cash is recorded after that day only with --force and a --note saying when it was paid`;
  }
  return null;
}

function cashOrderRefusal(order: OrderFacts, amount: Minor): string | null {
  if (order.status !== 'PENDING' || order.paidAt) {
    return `order ${order.orderRef} is ${order.status}; cash can only be recorded for a PENDING order`;
  }
  if (order.settlementType !== 'CASH') {
    return `order ${order.orderRef} is settled ${order.settlementType}; it is paid online through the pay operation, not in cash`;
  }
  if (amount !== order.totalAmount) {
    return `amount ${order.currency} ${decimalStringFromMinor(amount)} does not match the order total ${order.currency} ${decimalStringFromMinor(order.totalAmount)}`;
  }
  return null;
}

/**
 * An amount an operator typed, like `4500` or `4500.00`: digits with at most two decimals, so
 * nothing is silently rounded or truncated (`4500.005` is refused, not read as 4500.00).
 */
export function parseOperatorAmount(text: string): Minor | null {
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
