import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAudit } from '../orders';
import type { AssistanceCase } from './entities/assistance-case';
import { AssistanceCaseEntry } from './entities/assistance-case-entry';
import { nextStatus, type CaseAction } from './rules/case-status';
import { recordCaseEvent } from './case-events';
import { caseReaders } from './case-readers';
import type { Minor } from '../../kernel/money';

/** The guarantee of payment the desk gives when it authorises. */
export interface CaseGuarantee {
  guaranteeRef: string;
  operator: string;
  costLimit: Minor;
  currency: string;
  destinationHospital: string;
}

export interface CaseMoveInput {
  action: CaseAction;
  by: 'PARTNER' | 'DESK';
  /** `api:<companyId>` or `operator-cli:<user>`. */
  actor: string;
  at: Date;
  /** The desk's note, the decline or withdrawal reason: shown in the timeline and the event. */
  note?: string | null;
  guarantee?: CaseGuarantee;
}

/**
 * The one function that moves a case (decision record 0073): asks the state machine, sets
 * the status and what the move records (the guarantee, a reason, the review time), and writes
 * in the caller's transaction the timeline entry, the audit entry and one
 * `assistance_case.updated` per reader. `refuse` builds the error of a move the table forbids
 * (a 400 for a partner, an operator refusal for the desk). The caller holds the case's row lock.
 */
export async function moveCase(
  tx: EntityManager,
  assistanceCase: AssistanceCase,
  input: CaseMoveInput,
  refuse: (message: string) => Error,
): Promise<void> {
  const move = nextStatus(assistanceCase.caseRef, assistanceCase.status, input.action);
  if (!move.allowed) throw refuse(move.reason);
  const previousStatus = assistanceCase.status;
  assistanceCase.status = move.to;
  const note = input.note ?? null;
  if (input.action === 'REVIEW') assistanceCase.reviewedAt = input.at;
  if (input.action === 'DECLINE') assistanceCase.declineReason = note;
  if (input.action === 'WITHDRAW') assistanceCase.withdrawalReason = note;
  if (input.action === 'AUTHORISE') {
    if (!input.guarantee) throw refuse(`Authorising ${assistanceCase.caseRef} needs a guarantee of payment`);
    assistanceCase.guaranteeRef = input.guarantee.guaranteeRef;
    assistanceCase.guaranteeOperator = input.guarantee.operator;
    assistanceCase.guaranteeCostLimit = input.guarantee.costLimit;
    assistanceCase.guaranteeCurrency = input.guarantee.currency;
    assistanceCase.destinationHospital = input.guarantee.destinationHospital;
    assistanceCase.authorisedAt = input.at;
  }
  tx.create(AssistanceCaseEntry, {
    assistanceCase,
    at: input.at,
    kind: 'STATUS_CHANGED',
    by: input.by,
    actor: input.actor,
    status: move.to,
    previousStatus,
    note,
    changes: {},
  });
  recordAudit(tx, {
    actor: input.actor,
    action: 'ASSISTANCE_CASE_STATUS_CHANGED',
    order: assistanceCase.order,
    at: input.at,
    details: {
      caseRef: assistanceCase.caseRef,
      from: previousStatus,
      to: move.to,
      ...(note ? { note } : {}),
      ...(assistanceCase.guaranteeRef && input.action === 'AUTHORISE'
        ? { guaranteeRef: assistanceCase.guaranteeRef }
        : {}),
    },
  });
  recordCaseEvent(tx, assistanceCase, await caseReaders(tx, assistanceCase.order), {
    type: 'assistance_case.updated',
    previousStatus,
    note,
    at: input.at,
  });
}
