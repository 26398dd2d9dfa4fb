import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { AuditEntry } from '../orders';
import { Claim, type DeclineReason } from './entities/claim';
import type { ClaimPayout } from './entities/claim-payout';
import { approvalOf, type ItemFigures } from './claim-approval';
import { moveClaim, type ClaimMove } from './claim-life';
import { claimDetail } from './claim-reading';
import type { FiledClaim } from './claim-filing';
import { declineProblem } from './rules/assessment';
import type { ClaimStatus } from './rules/claim-life';

/**
 * The claims desk's side (the insurer's team, through `ops claim` for now): its queue, a claim
 * with its audit entries, and its moves, each one transaction through moveClaim under the
 * claim's row lock; every refusal is an OperatorRefusal with the machine's or the rule's reason.
 */

/** The statuses that wait for the desk. */
const DESK_WAITS: readonly ClaimStatus[] = ['SUBMITTED', 'UNDER_ASSESSMENT', 'APPROVED', 'PARTIALLY_APPROVED'];

/** `ops claim list`: by default the claims waiting for the desk, oldest first. */
export async function claimQueue(em: EntityManager, statuses: readonly ClaimStatus[] = DESK_WAITS): Promise<Claim[]> {
  return em.find(
    Claim,
    { status: { $in: [...statuses] } },
    { populate: ['order'], orderBy: { filedAt: 'asc', id: 'asc' } },
  );
}

export interface DeskClaim extends FiledClaim {
  audit: AuditEntry[];
}

/** `ops claim show`: the claim as the placing company sees it, its timeline and its audit entries. */
export async function deskClaim(em: EntityManager, claimRef: string): Promise<DeskClaim> {
  const claim = await claimByRef(em, claimRef);
  const detail = await claimDetail(em, claim);
  const audit = await em.find(
    AuditEntry,
    { order: claim.order.id, action: { $like: 'CLAIM_%' } },
    { orderBy: { at: 'asc', id: 'asc' } },
  );
  return { ...detail, audit: audit.filter((entry) => entry.details.claimRef === claim.claimRef) };
}

export type DeskDecision =
  | { step: 'ASSESS' | 'CLOSE'; note?: string }
  | { step: 'REQUEST_INFORMATION'; note: string }
  | { step: 'APPROVE'; figures: ReadonlyMap<number, ItemFigures>; note?: string }
  | { step: 'DECLINE'; reason: DeclineReason; note?: string }
  | { step: 'PAY'; payout: { method: ClaimPayout['method']; reference: string; paidOn: string }; note?: string };

/** `ops claim assess|request-info|approve|decline|pay|close`: one move, refused with the reason. */
export async function deskMove(
  em: EntityManager,
  claimRef: string,
  decision: DeskDecision,
  actor: string,
  now = new Date(),
): Promise<FiledClaim> {
  return em.fork().transactional(async (tx) => {
    const claim = await claimByRef(tx, claimRef, true);
    const refuse = (message: string) => new OperatorRefusal(message);
    await moveClaim(tx, claim, await moveOf(tx, claim, decision, actor, now), refuse);
    await tx.flush();
    return claimDetail(tx, claim);
  });
}

async function moveOf(
  tx: EntityManager,
  claim: Claim,
  decision: DeskDecision,
  actor: string,
  at: Date,
): Promise<ClaimMove> {
  const base = { by: 'DESK' as const, actor, at, note: decision.note ?? null };
  switch (decision.step) {
    case 'APPROVE': {
      // The desk enters each foreign item's rate: none is assumed.
      const approval = await approvalOf(tx, claim, decision.figures, { rateOf: () => null, rateDate: null });
      if ('refused' in approval) throw new OperatorRefusal(`${claim.claimRef} cannot be approved: ${approval.refused}`);
      return { ...base, step: approval.assessment.step, approval };
    }
    case 'DECLINE': {
      const problem = declineProblem(decision.reason, decision.note ?? null);
      if (problem) throw new OperatorRefusal(problem);
      return { ...base, step: 'DECLINE', declineReason: decision.reason };
    }
    case 'PAY':
      return { ...base, step: 'PAY', payout: decision.payout };
    default:
      return { ...base, step: decision.step };
  }
}

async function claimByRef(em: EntityManager, claimRef: string, lock = false): Promise<Claim> {
  const claim = await em.findOne(
    Claim,
    { claimRef: claimRef.trim().toUpperCase() },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!claim) throw new OperatorRefusal(`no claim ${claimRef}`);
  await em.populate(claim, ['order', 'assistanceCase']);
  return claim;
}
