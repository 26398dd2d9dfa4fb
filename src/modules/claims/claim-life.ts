import type { EntityManager } from '@mikro-orm/postgresql';
import { amountFromMinor, type Minor } from '../../kernel/money';
import { recordAudit } from '../orders';
import { recordWebhookEvent, type WebhookEventType } from '../webhooks';
import type { Order } from '../orders';
import type { Claim, DeclineReason } from './entities/claim';
import { ClaimEntry } from './entities/claim-entry';
import type { ClaimItem } from './entities/claim-item';
import { ClaimItemDecision } from './entities/claim-item-decision';
import { ClaimPayout } from './entities/claim-payout';
import { claimStep, type ClaimStatus, type ClaimStep } from './rules/claim-life';
import type { Assessment, ItemApproval } from './rules/assessment';
import { claimReaders } from './claim-readers';
import { payoutWire } from './claim-wire';

/**
 * The one writer of a claim's life (decision record 0095): its birth, and every step of
 * rules/claim-life.ts with what the step records (the decision per item, the decline, the payout,
 * the withdrawal), its timeline entry, its audit entry and its webhook event, in the caller's
 * transaction, under the claim's row lock the caller holds. The claim's life fields are readonly;
 * test/claims/one-writer.test.ts fails when another file writes them.
 */

export interface ClaimMove {
  step: ClaimStep;
  by: 'PARTNER' | 'DESK';
  /** `api:<companyId>`, `operator-cli:<user>`, `sandbox-helper`. */
  actor: string;
  at: Date;
  /** The desk's note or request, the partner's answer, the withdrawal reason. */
  note?: string | null;
  /** ANSWER: the documents sent with it (already attached). */
  documentIds?: readonly string[];
  /** APPROVE / APPROVE_PARTIALLY: the desk's figures per item and the assessment they give. */
  approval?: { items: readonly (ItemApproval & { item: ClaimItem })[]; assessment: Assessment };
  /** DECLINE. */
  declineReason?: DeclineReason;
  /** PAY: what the insurer's bank paid. */
  payout?: { method: ClaimPayout['method']; reference: string; paidOn: string };
}

/** A step refused by the machine or missing what it records; `refuse` turns it into the caller's error. */
export type Refuse = (message: string) => Error;

/** The claim's fields a step writes; Object.assign is how this file, and only it, writes them. */
type ClaimLife = Pick<
  Claim,
  'status' | 'approvedTotal' | 'excessApplied' | 'declineReason' | 'decisionNote' | 'decidedAt' | 'withdrawalReason'
>;

const EVENT_OF: Readonly<Partial<Record<ClaimStep, WebhookEventType>>> = {
  REQUEST_INFORMATION: 'claim.information_requested',
  APPROVE: 'claim.decided',
  APPROVE_PARTIALLY: 'claim.decided',
  DECLINE: 'claim.decided',
  PAY: 'claim.paid',
  WITHDRAW: 'claim.withdrawn',
};

/** Applies one step to a claim the caller holds locked, populated with its order. */
export async function moveClaim(tx: EntityManager, claim: Claim, move: ClaimMove, refuse: Refuse): Promise<void> {
  const next = claimStep(claim.claimRef, claim.status, move.step);
  if ('refused' in next) throw refuse(next.refused);
  const previousStatus = claim.status;
  const note = move.note ?? null;
  let payout: ClaimPayout | null = null;
  const life: Partial<ClaimLife> = { status: next.to };
  if (move.step === 'APPROVE' || move.step === 'APPROVE_PARTIALLY') {
    const approval = move.approval;
    if (!approval) throw refuse(`Approving ${claim.claimRef} needs the approved amount of each item`);
    if (approval.assessment.step !== move.step)
      throw refuse(`The figures give ${approval.assessment.step}, not ${move.step}, for ${claim.claimRef}`);
    for (const [index, item] of approval.items.entries()) {
      tx.create(ClaimItemDecision, {
        item: item.item,
        approvedAmount: item.approvedAmount,
        exchangeRate: item.exchangeRate,
        rateDate: item.rateDate,
        approvedNpr: approval.assessment.itemsNpr[index] ?? 0,
        note: null,
        decidedAt: move.at,
      });
    }
    Object.assign(life, {
      approvedTotal: approval.assessment.approvedTotal,
      excessApplied: approval.assessment.excessApplied,
      decisionNote: note,
      decidedAt: move.at,
    });
  }
  if (move.step === 'DECLINE') {
    if (!move.declineReason) throw refuse(`Declining ${claim.claimRef} needs a reason code`);
    Object.assign(life, {
      approvedTotal: 0,
      excessApplied: 0,
      declineReason: move.declineReason,
      decisionNote: note,
      decidedAt: move.at,
    });
  }
  if (move.step === 'PAY') {
    if (!move.payout) throw refuse(`Paying ${claim.claimRef} needs the payout's method, reference and date`);
    payout = tx.create(ClaimPayout, {
      claim,
      amount: claim.approvedTotal ?? 0,
      ...move.payout,
      actor: move.actor,
      createdAt: move.at,
    });
  }
  if (move.step === 'WITHDRAW') Object.assign(life, { withdrawalReason: note });
  Object.assign(claim, life satisfies Partial<ClaimLife>, { updatedAt: move.at });
  tx.create(ClaimEntry, {
    claim,
    at: move.at,
    kind: 'STATUS_CHANGED',
    by: move.by,
    actor: move.actor,
    status: next.to,
    previousStatus,
    note,
    documentIds: [...(move.documentIds ?? [])],
  });
  recordAudit(tx, {
    actor: move.actor,
    action: 'CLAIM_STATUS_CHANGED',
    order: claim.order,
    at: move.at,
    details: {
      claimRef: claim.claimRef,
      from: previousStatus,
      to: next.to,
      ...(note ? { note } : {}),
      ...(life.approvedTotal !== undefined ? { approvedTotal: amountFromMinor(life.approvedTotal ?? 0) } : {}),
      ...(move.declineReason ? { declineReason: move.declineReason } : {}),
      ...(move.payout ? { payoutReference: move.payout.reference } : {}),
    },
  });
  const type = EVENT_OF[move.step];
  if (type) await recordClaimEvent(tx, claim, type, { previousStatus, note, payout, at: move.at });
}

/** What a claim's birth records besides the claim: its FILED entry, its audit entry and the data of `claim.submitted`. */
export interface BirthRecords {
  entry: Pick<ClaimEntry, 'at' | 'kind' | 'by' | 'actor' | 'status' | 'previousStatus' | 'note' | 'documentIds'>;
  audit: { actor: string; action: 'CLAIM_FILED'; at: Date; details: Record<string, unknown> };
  event: Record<string, unknown>;
}

/** The claim's fields its birth records and its events show. */
export type ClaimFacts = Pick<
  Claim,
  'claimRef' | 'claimType' | 'status' | 'flags' | 'approvedTotal' | 'declineReason' | 'filedAt'
> & { order: Pick<Order, 'orderRef' | 'policyNumber'> };

/**
 * A claim is born SUBMITTED with its FILED entry, its audit entry and `claim.submitted`: filed by
 * the partner, or by the desk billing an assistance case's guarantee (`billing`, decision record
 * 0101). Built here once for both writers: fileClaimRecord's entities, and the filing's one
 * statement (filing-record.ts, decision record 0107).
 */
export function birthRecords(
  claim: ClaimFacts,
  actor: string,
  at: Date,
  billing: { caseRef: string; note: string } | null = null,
): BirthRecords {
  return {
    entry: {
      at,
      kind: 'FILED',
      by: billing ? 'DESK' : 'PARTNER',
      actor,
      status: 'SUBMITTED',
      previousStatus: null,
      note: billing?.note ?? null,
      documentIds: [],
    },
    audit: {
      actor,
      action: 'CLAIM_FILED',
      at,
      details: {
        claimRef: claim.claimRef,
        claimType: claim.claimType,
        flags: claim.flags,
        ...(billing ? { billedFromCase: billing.caseRef, note: billing.note } : {}),
      },
    },
    event: claimEventData(claim, { previousStatus: null, note: null, payout: null }),
  };
}

/** The birth records of a claim built as an entity (the desk billing a case), in the caller's transaction. */
export async function fileClaimRecord(
  tx: EntityManager,
  claim: Claim,
  actor: string,
  at: Date,
  billing: { caseRef: string; note: string } | null = null,
): Promise<void> {
  const records = birthRecords(claim, actor, at, billing);
  tx.create(ClaimEntry, { claim, ...records.entry });
  recordAudit(tx, { ...records.audit, order: claim.order });
  for (const companyId of await claimReaders(tx, claim.order))
    recordWebhookEvent(tx, companyId, 'claim.submitted', records.event, at);
}

/** One event per company that may read the claim, in the caller's transaction (the outbox). */
async function recordClaimEvent(
  tx: EntityManager,
  claim: Claim,
  type: WebhookEventType,
  change: { previousStatus: ClaimStatus | null; note: string | null; payout: ClaimPayout | null; at: Date },
): Promise<void> {
  const data = claimEventData(claim, change);
  for (const companyId of await claimReaders(tx, claim.order)) recordWebhookEvent(tx, companyId, type, data, change.at);
}

function claimEventData(
  claim: ClaimFacts,
  change: { previousStatus: ClaimStatus | null; note: string | null; payout: ClaimPayout | null },
): Record<string, unknown> {
  const approved: Minor | null | undefined = claim.approvedTotal;
  return {
    claimRef: claim.claimRef,
    orderRef: claim.order.orderRef,
    policyNumber: claim.order.policyNumber ?? null,
    claimType: claim.claimType,
    status: claim.status,
    previousStatus: change.previousStatus,
    note: change.note,
    approvedTotal: approved === null || approved === undefined ? null : amountFromMinor(approved),
    declineReason: claim.declineReason ?? null,
    payout: change.payout ? payoutWire(change.payout) : null,
    filedAt: claim.filedAt.toISOString(),
  };
}
