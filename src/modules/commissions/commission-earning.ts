import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import type { Order } from '../orders/entities/order';
import { CommissionEntry } from './entities/commission-entry';
import { earnedLines } from './rules/commission-amounts';
import { commissionBase } from './rules/commission-base';
import { earnersOf } from './rules/commission-earners';
import { periodOf } from './rules/commission-period';
import { earnerFactsOf } from './order-earners';
import { commissionCapBasisPoints } from './settings';

export interface PaidShares {
  /** The payment (an online attempt or a cash record) whose shares paid the orders. */
  paymentRef: string;
  occurredAt: Date;
  /**
   * Each order the payment made PAID, with what the payment took for it. `premiumOnly`: the
   * share is premium and nothing else (an extension's top-up, decision record 0099), so all of
   * it is the base.
   */
  shares: ReadonlyArray<{ order: Order; share: Minor; premiumOnly?: boolean }>;
}

/**
 * EARNED lines for orders that just became PAID, in the transaction that paid them (online
 * settlement or cash): one per earner, each with the percent it used, on the base the rules give.
 * Call it after the policy numbers are issued, so each line names its policy.
 */
export async function recordCommissionEarned(tx: EntityManager, paid: PaidShares): Promise<CommissionEntry[]> {
  if (paid.shares.length === 0) return [];
  const facts = await earnerFactsOf(
    tx,
    paid.shares.map(({ order }) => order),
  );
  const capBp = commissionCapBasisPoints();
  const period = periodOf(paid.occurredAt);
  const entries: CommissionEntry[] = [];
  for (const { order, share, premiumOnly } of paid.shares) {
    const base = premiumOnly ? share : commissionBase(order, share);
    for (const line of earnedLines(earnersOf(facts.get(order.id)!), base, capBp)) {
      entries.push(
        tx.create(CommissionEntry, {
          kind: 'EARNED',
          company: line.companyId,
          agent: line.agentId ?? null,
          role: line.role,
          order,
          policyNumber: order.policyNumber ?? null,
          paymentRef: paid.paymentRef,
          currency: order.currency,
          share,
          base,
          percent: decimalStringFromMinor(line.percentBp),
          capPercent: decimalStringFromMinor(line.capBp),
          capped: line.capped,
          amount: line.amount,
          occurredAt: paid.occurredAt,
          period,
          createdAt: paid.occurredAt,
        }),
      );
    }
  }
  return entries;
}
