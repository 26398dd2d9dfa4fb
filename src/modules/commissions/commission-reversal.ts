import type { EntityManager } from '@mikro-orm/postgresql';
import type { Minor } from '../../kernel/money';
import type { Order } from '../orders/entities/order';
import { CommissionEntry } from './entities/commission-entry';
import { periodOf } from './rules/commission-period';
import { reversedAmount } from './rules/commission-reversal';

export interface SucceededRefund {
  order: Order;
  /** The payment whose share went back: only what that share earned is taken back. */
  paymentRef: string;
  refundRef: string;
  /** What went back to the customer (a cancellation fee kept is not in it). */
  refundedAmount: Minor;
  occurredAt: Date;
}

const earnerKey = (entry: CommissionEntry) => `${entry.role}:${entry.company.id}`;

/**
 * REVERSED lines for a refund that succeeded (or a reversal the provider made), in that
 * transaction: each earner of the share gives back the refund's proportion of what it earned,
 * in the month the refund happens (a closed month stays as it was). A share that earned nothing
 * (a late capture that paid no order) reverses nothing; a refund already reversed writes nothing again.
 */
export async function recordCommissionReversal(tx: EntityManager, refund: SucceededRefund): Promise<CommissionEntry[]> {
  if (refund.refundedAmount <= 0) return [];
  const lines = await tx.find(
    CommissionEntry,
    { order: refund.order.id, paymentRef: refund.paymentRef },
    { orderBy: { occurredAt: 'asc', id: 'asc' } },
  );
  const earned = lines.filter((line) => line.kind === 'EARNED');
  if (earned.length === 0 || lines.some((line) => line.refundRef === refund.refundRef)) return [];
  const refundedBefore = new Map<string, Minor>();
  for (const line of lines) {
    if (line.kind === 'REVERSED')
      refundedBefore.set(earnerKey(line), (refundedBefore.get(earnerKey(line)) ?? 0) + (line.refunded ?? 0));
  }
  const period = periodOf(refund.occurredAt);
  const entries: CommissionEntry[] = [];
  for (const line of earned) {
    const before = refundedBefore.get(earnerKey(line)) ?? 0;
    const refunded = Math.min(refund.refundedAmount, line.share - before);
    const amount = reversedAmount({ earned: line.amount, share: line.share, refundedBefore: before, refunded });
    if (refunded <= 0) continue;
    entries.push(
      tx.create(CommissionEntry, {
        kind: 'REVERSED',
        company: line.company,
        agent: line.agent ?? null,
        role: line.role,
        order: line.order,
        policyNumber: line.policyNumber ?? null,
        paymentRef: line.paymentRef,
        refundRef: refund.refundRef,
        currency: line.currency,
        share: line.share,
        base: line.base,
        percent: line.percent,
        capPercent: line.capPercent,
        capped: line.capped,
        amount,
        refunded,
        occurredAt: refund.occurredAt,
        period,
        createdAt: refund.occurredAt,
      }),
    );
  }
  return entries;
}
