import { amountFromMinor } from '../../kernel/money';
import type { Schemas } from '../../kernel/http/wire';
import type { AssistanceCase } from './entities/assistance-case';
import type { AssistanceCaseEntry } from './entities/assistance-case-entry';
import { deskInstruction } from './rules/desk-instruction';

/** A case as the partner reads it; order and traveller must be loaded. */
export function caseWire(assistanceCase: AssistanceCase, documentIds: readonly string[], deskPhone: string): Schemas['AssistanceCase'] {
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

export function caseDetailWire(assistanceCase: AssistanceCase, documentIds: readonly string[], timeline: readonly AssistanceCaseEntry[], deskPhone: string): Schemas['AssistanceCaseDetail'] {
  return { ...caseWire(assistanceCase, documentIds, deskPhone), timeline: timeline.map(entryWire) };
}

function entryWire(entry: AssistanceCaseEntry): Schemas['AssistanceCaseTimelineEntry'] {
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
export function guaranteeWire(assistanceCase: AssistanceCase): Schemas['AssistanceGuarantee'] | null {
  const { guaranteeRef, guaranteeOperator, guaranteeCostLimit, guaranteeCurrency, destinationHospital, authorisedAt } = assistanceCase;
  if (!guaranteeRef || !guaranteeOperator || guaranteeCostLimit == null || !guaranteeCurrency || !destinationHospital || !authorisedAt) return null;
  return {
    guaranteeRef,
    operator: guaranteeOperator,
    costLimit: amountFromMinor(guaranteeCostLimit),
    currency: guaranteeCurrency,
    destinationHospital,
    authorisedAt: authorisedAt.toISOString(),
  };
}
