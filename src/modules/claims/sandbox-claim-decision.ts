import type { EntityManager } from '@mikro-orm/postgresql';
import { businessToday } from '../../kernel/business-today';
import { conflict } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import type { Claim } from './entities/claim';
import { ClaimItem } from './entities/claim-item';
import { approvalOf, type ItemFigures } from './claim-approval';
import { moveClaim, type ClaimMove } from './claim-life';
import { claimDetail, findVisibleClaim } from './claim-reading';
import type { FiledClaim } from './claim-filing';
import { declineProblem, sandboxRate } from './rules/assessment';
import type { ClaimStep } from './rules/claim-life';
import { sandboxSteps } from './rules/sandbox-decision';

const ACTOR = 'sandbox-helper';
const refused = (message: string) => conflict(message).coded('CLAIM_MOVE_NOT_ALLOWED');

/**
 * POST /sandbox/claims/{claimRef}/decision: the sandbox claims desk moves a claim the caller may
 * read to the status asked for, step by step through the one mover (each step its entry, audit
 * entry and webhook), in one transaction under the claim's row lock.
 */
export async function decideSandboxClaim(
  em: EntityManager,
  principal: Principal,
  claimRef: string,
  request: Schemas['SandboxClaimDecisionRequest'],
  now = new Date(),
): Promise<FiledClaim> {
  return em.fork().transactional(async (tx) => {
    const claim = await findVisibleClaim(tx, principal, claimRef, true);
    for (const [index, step] of sandboxSteps(claim.status, request.decision).entries()) {
      // One millisecond apart: the timeline reads oldest first, and its steps keep their order.
      const at = new Date(now.getTime() + index);
      await moveClaim(tx, claim, await moveOf(tx, claim, step, request, at), refused);
    }
    await tx.flush();
    return claimDetail(tx, claim);
  });
}

async function moveOf(
  tx: EntityManager,
  claim: Claim,
  step: ClaimStep,
  request: Schemas['SandboxClaimDecisionRequest'],
  at: Date,
): Promise<ClaimMove> {
  const base = { step, by: 'DESK' as const, actor: ACTOR, at, note: request.note ?? null };
  switch (step) {
    case 'REQUEST_INFORMATION':
      return { ...base, note: request.note ?? 'Please send the documents the checklist lists (sandbox desk).' };
    case 'APPROVE':
    case 'APPROVE_PARTIALLY': {
      const approval = await approvalOf(tx, claim, await figuresFor(tx, claim, step), {
        rateOf: sandboxRate,
        rateDate: businessToday(at),
      });
      if ('refused' in approval) throw refused(`Claim ${claim.claimRef} cannot be approved: ${approval.refused}`);
      // The line's limit may make a full approval partial: the figures decide the status.
      return { ...base, step: approval.assessment.step, approval };
    }
    case 'DECLINE': {
      const declineReason = request.declineReason ?? 'INSUFFICIENT_EVIDENCE';
      const problem = declineProblem(declineReason, request.note ?? null);
      if (problem) throw refused(`Claim ${claim.claimRef} cannot be declined: ${problem}`);
      return { ...base, declineReason };
    }
    case 'PAY':
      return {
        ...base,
        payout: { method: 'BANK_TRANSFER', reference: `SBX-${claim.claimRef}`, paidOn: businessToday(at) },
      };
    default:
      return base;
  }
}

/** Full approvals need no figures; a partial one approves every item at half its amount. */
async function figuresFor(tx: EntityManager, claim: Claim, step: ClaimStep): Promise<Map<number, ItemFigures>> {
  if (step === 'APPROVE') return new Map();
  const items = await tx.find(ClaimItem, { claim: claim.id });
  return new Map(items.map((item) => [item.position, { approvedAmount: Math.floor(item.amount / 2) }]));
}
