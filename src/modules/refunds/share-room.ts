import type { EntityManager } from '@mikro-orm/postgresql';
import type { Minor } from '../../kernel/money';
import { PaymentAttemptOrder } from '../payments/entities/payment-attempt-order';

/** One order's share of one payment: what refunds of it are measured against. */
export interface ShareKey {
  attemptId: string;
  orderId: string;
}

/**
 * The refund lock of a share (decision 0091): every writer of a refund of one order's share of
 * one payment — a cancellation, the operator's confirm, retry and partial reversal, the payment
 * watch, the executor's record of an answer — takes it before it reads the share's refunds, and
 * holds it to its commit. It is the share's row (`payment_attempt_order`) `FOR UPDATE`, taken
 * after the order's row `FOR UPDATE`: the lock order of settlement (orders, then the payment),
 * so that the audit entry's foreign key on the order never waits for a writer that waits for
 * this one. So one refund is recorded once, and what the share has left is read by one writer
 * at a time. Orders are locked in id order when there are several (a group payment).
 */
export async function lockSharesForRefunds(tx: EntityManager, attemptId: string, orderIds: readonly string[]) {
  const sorted = [...new Set(orderIds)].sort();
  if (sorted.length === 0) return;
  await tx.execute(`select 1 from "insurance_order" where "id" = any(?::uuid[]) order by "id" for update`, [
    `{${sorted.join(',')}}`,
  ]);
  await tx.execute(
    `select 1 from "payment_attempt_order" where "attempt_id" = ? and "order_id" = any(?::uuid[]) order by "order_id" for update`,
    [attemptId, `{${sorted.join(',')}}`],
  );
}

/** The refund lock of one share (lockSharesForRefunds). */
export const lockShareForRefunds = (tx: EntityManager, share: ShareKey) =>
  lockSharesForRefunds(tx, share.attemptId, [share.orderId]);

/**
 * What the share's refunds hold of it: the sum of every refund of the share that is not FAILED
 * (PENDING, MANUAL and SUCCEEDED alike: money sent, being sent, or an operator's to send), but
 * `except` (the refund being moved). A FAILED refund holds nothing: no money went back.
 */
export async function refundsHolding(tx: EntityManager, share: ShareKey, except?: string): Promise<Minor> {
  // Read from the rows (tx.execute runs in the caller's transaction): a partial load would stay in the identity map.
  const [row] = await tx.execute<Array<{ held: string }>>(
    `select (coalesce(sum("amount"), 0) * 100)::bigint::text as "held" from "refund"
      where "attempt_id" = ? and "order_id" = ? and "status" <> 'FAILED' and "id" is distinct from ?::uuid`,
    [share.attemptId, share.orderId, except ?? null],
  );
  return Number(row?.held ?? 0);
}

/**
 * What is left of the share for one more refund (its amount plus its fee): the share captured
 * less every refund of it not FAILED (refundsHolding). Null when there is no such share.
 */
export async function shareLeft(tx: EntityManager, share: ShareKey, except?: string): Promise<Minor | null> {
  const line = await tx.findOne(PaymentAttemptOrder, { attempt: share.attemptId, order: share.orderId });
  if (!line) return null;
  return line.amount - (await refundsHolding(tx, share, except));
}
