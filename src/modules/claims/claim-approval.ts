import type { EntityManager } from '@mikro-orm/postgresql';
import type { Minor } from '../../kernel/money';
import { Claim } from './entities/claim';
import { ClaimItem } from './entities/claim-item';
import { assess, type Assessment, type ItemApproval } from './rules/assessment';
import { APPROVAL_COUNTS } from './rules/claim-life';
import { coverageLineOf } from './rules/filing';

/** The desk's figures for one item; what it leaves out approves the item in full. */
export interface ItemFigures {
  /** Hundredths of the item's currency. */
  approvedAmount?: Minor;
  exchangeRate?: string | null;
  rateDate?: string | null;
}

export interface Approval {
  items: (ItemApproval & { item: ClaimItem })[];
  assessment: Assessment;
}

/**
 * The assessment of `claim` (populated with its order) from the desk's figures per item position,
 * against the package's line limit and excess and what earlier claims on the same policy and line
 * were approved; or why the figures cannot stand.
 */
export async function approvalOf(
  tx: EntityManager,
  claim: Claim,
  figures: ReadonlyMap<number, ItemFigures>,
  defaults: { rateOf: (currency: string) => string | null; rateDate: string | null },
): Promise<Approval | { refused: string }> {
  await tx.populate(claim, ['order.ctg']);
  const items = await tx.find(ClaimItem, { claim: claim.id }, { orderBy: { position: 'asc' } });
  const unknown = [...figures.keys()].find((position) => !items.some((item) => item.position === position));
  if (unknown !== undefined) return { refused: `${claim.claimRef} has no item ${unknown}` };
  const approvals = items.map((item) => {
    const given = figures.get(item.position) ?? {};
    const exchangeRate = given.exchangeRate === undefined ? defaults.rateOf(item.currency) : given.exchangeRate;
    return {
      item,
      position: item.position,
      amount: item.amount,
      currency: item.currency,
      approvedAmount: given.approvedAmount ?? item.amount,
      exchangeRate,
      rateDate: item.currency === 'NPR' ? null : (given.rateDate ?? defaults.rateDate),
    };
  });
  const line = coverageLineOf(claim.claimType, claim.order.ctg.coverage);
  const assessment = assess({
    items: approvals,
    excess: claim.order.ctg.excessAmount,
    lineLimit: line?.coverageAmount ?? 0,
    earlierApproved: await earlierApproved(tx, claim),
    cap: claim.payoutCap ?? null,
  });
  return 'refused' in assessment ? assessment : { items: approvals, assessment };
}

/** What other claims on the same policy and coverage line were approved (decided for payment, paid or closed). */
async function earlierApproved(tx: EntityManager, claim: Claim): Promise<Minor> {
  const others = await tx.find(Claim, {
    order: claim.order.id,
    coverageLine: claim.coverageLine,
    status: { $in: [...APPROVAL_COUNTS] },
    id: { $ne: claim.id },
  });
  return others.reduce((sum, other) => sum + (other.approvedTotal ?? 0), 0);
}
