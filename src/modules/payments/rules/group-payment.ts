import type { Minor } from '../../../kernel/money';
import type { AttemptStatus } from './payment-attempt';

/** The contract's GroupPaymentStatus. */
export type GroupPaymentStatus =
  'NOT_INITIATED' | Exclude<AttemptStatus, 'SUCCESS'> | 'PARTIALLY_PAID' | 'PAID' | 'NOTHING_TO_PAY';

/** What the group's payment needs to know of one of its orders. */
export interface GroupMember {
  /** The order is PENDING: a new group payment would take it. */
  pending: boolean;
  /** The order was paid (it may have been cancelled since). */
  paid: boolean;
  totalAmount: Minor;
  /** What the refund of the paid order's cancellation gives back, unless it FAILED; 0 without one. */
  refunded: Minor;
}

export interface GroupPaymentSummary {
  status: GroupPaymentStatus;
  paidOrders: number;
  pendingOrders: number;
  paidAmount: Minor;
  outstandingAmount: Minor;
  /** What the refunds of the group's cancelled paid orders give back (those not FAILED). */
  refundedAmount: Minor;
  /** paidAmount less refundedAmount: what the group's payments keep. */
  netAmount: Minor;
}

/**
 * Where a group's payment stands. The orders decide once any is paid or none is left to pay (an
 * order paid on its own counts as much as one paid by the group); before that, the latest group
 * payment says how far the customer got. A SUCCESS that paid no order cannot be: success is
 * recorded with the orders it paid.
 */
export function groupPaymentOf(
  members: readonly GroupMember[],
  latestAttempt: AttemptStatus | null,
): GroupPaymentSummary {
  const paid = members.filter((member) => member.paid);
  const pending = members.filter((member) => member.pending);
  const sum = (some: GroupMember[]) => some.reduce((total, member) => total + member.totalAmount, 0);
  const refundedAmount = paid.reduce((total, member) => total + member.refunded, 0);
  return {
    status: statusOf(paid.length, pending.length, latestAttempt),
    paidOrders: paid.length,
    pendingOrders: pending.length,
    paidAmount: sum(paid),
    outstandingAmount: sum(pending),
    refundedAmount,
    netAmount: sum(paid) - refundedAmount,
  };
}

function statusOf(paid: number, pending: number, latestAttempt: AttemptStatus | null): GroupPaymentStatus {
  if (pending === 0) return paid > 0 ? 'PAID' : 'NOTHING_TO_PAY';
  if (paid > 0) return 'PARTIALLY_PAID';
  if (latestAttempt === null || latestAttempt === 'SUCCESS') return 'NOT_INITIATED';
  return latestAttempt;
}
