import type { RefundWrites } from '../refunds';
import { recordAudit } from '../orders';
import { PaymentAttemptOrder } from './entities/payment-attempt-order';
import { moveAttempt, moveShare } from './attempt-life';

/**
 * What a refund's life writes outside refunds (decision record 0111): refunds owns the refund,
 * payments the attempt and its shares, orders the audit log. Refunds imports neither of its
 * callers (decision record 0075), so it is given this port; payments writes its own rows and
 * hands the audit entry to orders' recordAudit.
 */
export const refundWrites: RefundWrites = {
  async owe(tx, attempt, order) {
    const share = await tx.findOne(PaymentAttemptOrder, { attempt: attempt.id, order: order.id });
    if (share) moveShare(share, 'OWE');
  },

  async refunded(tx, { attempt, order, cause, at }) {
    const share = await tx.findOne(PaymentAttemptOrder, { attempt: attempt.id, order: order.id });
    // A partial reversal the operator records is not the refund the share owes (a cancellation's, still to be made or confirmed):
    // a full reversal settles every share itself (provider-reversal.ts).
    if (share && share.settlement === 'REFUND_PENDING' && cause !== 'PROVIDER_REVERSAL') moveShare(share, 'REFUND');
    if (attempt.status !== 'REFUND_PENDING') return;
    await tx.flush();
    const owed = await tx.count(PaymentAttemptOrder, { attempt: attempt.id, settlement: 'REFUND_PENDING' });
    if (owed > 0) return;
    await moveAttempt(tx, attempt, { step: 'REFUND', at });
  },

  async noted(_tx, attempt, note) {
    attempt.refundNote = note;
  },

  audit(tx, entry) {
    recordAudit(tx, entry);
  },
};
