import type { EntityManager } from '@mikro-orm/postgresql';
import { recordWebhookEvent } from '../webhooks';
import type { AssistanceCase } from './entities/assistance-case';
import type { CaseStatus } from './rules/case-status';
import { guaranteeWire, type CaseFacts } from './case-wire';

/**
 * `assistance_case.opened` / `assistance_case.updated`, in the caller's transaction (the outbox):
 * one event for each company that may read the case (the placing company and each registered
 * agency listed on the order), so every party to the rescue hears of each change once.
 * `readers` are those companies' ids.
 */
export function recordCaseEvent(
  tx: EntityManager,
  assistanceCase: AssistanceCase,
  readers: readonly string[],
  change: CaseChange,
): void {
  const data = caseEventData(assistanceCase, change);
  for (const companyId of readers) recordWebhookEvent(tx, companyId, change.type, data, change.at);
}

export interface CaseChange {
  type: 'assistance_case.opened' | 'assistance_case.updated';
  previousStatus: CaseStatus | null;
  note: string | null;
  at: Date;
}

/** The `data` of a case event: what a party to the rescue needs without a second call. */
export function caseEventData(assistanceCase: CaseFacts, change: CaseChange): Record<string, unknown> {
  const order = assistanceCase.order;
  return {
    caseRef: assistanceCase.caseRef,
    orderRef: order.orderRef,
    policyNumber: order.policyNumber ?? null,
    touristId: assistanceCase.traveller.id,
    status: assistanceCase.status,
    previousStatus: change.previousStatus,
    category: assistanceCase.category,
    requestedService: assistanceCase.requestedService,
    altitudeMeters: assistanceCase.altitudeMeters,
    coverageNotes: assistanceCase.coverageNotes,
    note: change.note,
    guarantee: guaranteeWire(assistanceCase),
    declineReason: assistanceCase.declineReason ?? null,
    openedAt: assistanceCase.openedAt.toISOString(),
  };
}
