import { amountFromMinor } from '../../kernel/money';
import type { Schemas } from '../../kernel/http/wire';
import type { AssistanceCase } from './entities/assistance-case';
import type { AssistanceCaseEntry } from './entities/assistance-case-entry';
import type { Order } from '../orders/entities/order';
import type { Traveller } from '../travellers/entities/traveller';
import { deskInstruction } from './rules/desk-instruction';

/**
 * What the answers and the events read of a case: the entity with its order and traveller
 * loaded, or the values a new case was just written with (case-opening.ts).
 */
export type CaseFacts = Pick<
  AssistanceCase,
  | 'caseRef'
  | 'status'
  | 'category'
  | 'requestedService'
  | 'location'
  | 'altitudeMeters'
  | 'summary'
  | 'reporter'
  | 'proposedOperator'
  | 'coverageNotes'
  | 'declineReason'
  | 'withdrawalReason'
  | 'openedAt'
  | 'updatedAt'
  | GuaranteeFields
> & {
  order: Pick<Order, 'orderRef' | 'policyNumber'>;
  traveller: Pick<Traveller, 'id' | 'name'>;
};

type GuaranteeFields =
  | 'guaranteeRef'
  | 'guaranteeOperator'
  | 'guaranteeCostLimit'
  | 'guaranteeCurrency'
  | 'destinationHospital'
  | 'authorisedAt';

/** A timeline entry as the answers read it. */
export type EntryFacts = Pick<
  AssistanceCaseEntry,
  'at' | 'kind' | 'by' | 'status' | 'previousStatus' | 'note' | 'changes'
>;

/** A case as the partner reads it. */
export function caseWire(
  assistanceCase: CaseFacts,
  documentIds: readonly string[],
  deskPhone: string,
): Schemas['AssistanceCase'] {
  return {
    caseRef: assistanceCase.caseRef,
    orderRef: assistanceCase.order.orderRef,
    policyNumber: assistanceCase.order.policyNumber ?? null,
    touristId: assistanceCase.traveller.id,
    travellerName: assistanceCase.traveller.name,
    status: assistanceCase.status,
    category: assistanceCase.category,
    requestedService: assistanceCase.requestedService,
    location: assistanceCase.location,
    altitudeMeters: assistanceCase.altitudeMeters,
    summary: assistanceCase.summary,
    reporter: assistanceCase.reporter,
    proposedOperator: assistanceCase.proposedOperator ?? null,
    documentIds: [...documentIds],
    coverageNotes: assistanceCase.coverageNotes,
    guarantee: guaranteeWire(assistanceCase),
    declineReason: assistanceCase.declineReason ?? null,
    withdrawalReason: assistanceCase.withdrawalReason ?? null,
    openedAt: assistanceCase.openedAt.toISOString(),
    updatedAt: assistanceCase.updatedAt.toISOString(),
    desk: { phone: deskPhone, instruction: deskInstruction(deskPhone, assistanceCase.caseRef) },
  };
}

export function caseDetailWire(
  assistanceCase: CaseFacts,
  documentIds: readonly string[],
  timeline: readonly EntryFacts[],
  deskPhone: string,
): Schemas['AssistanceCaseDetail'] {
  return { ...caseWire(assistanceCase, documentIds, deskPhone), timeline: timeline.map(entryWire) };
}

function entryWire(entry: EntryFacts): Schemas['AssistanceCaseTimelineEntry'] {
  return {
    at: entry.at.toISOString(),
    kind: entry.kind,
    by: entry.by,
    status: entry.status,
    previousStatus: entry.previousStatus ?? null,
    note: entry.note ?? null,
    changes: entry.changes,
  };
}

/** The guarantee of payment, once the desk has authorised. */
export function guaranteeWire(
  assistanceCase: Pick<AssistanceCase, GuaranteeFields>,
): Schemas['AssistanceGuarantee'] | null {
  const { guaranteeRef, guaranteeOperator, guaranteeCostLimit, guaranteeCurrency, destinationHospital, authorisedAt } =
    assistanceCase;
  if (
    !guaranteeRef ||
    !guaranteeOperator ||
    guaranteeCostLimit == null ||
    !guaranteeCurrency ||
    !destinationHospital ||
    !authorisedAt
  )
    return null;
  return {
    guaranteeRef,
    operator: guaranteeOperator,
    costLimit: amountFromMinor(guaranteeCostLimit),
    currency: guaranteeCurrency,
    destinationHospital,
    authorisedAt: authorisedAt.toISOString(),
  };
}
