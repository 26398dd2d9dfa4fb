import { amountFromMinor } from '../../kernel/money';
import type { Schemas } from '../../kernel/http/wire';
import type { Order } from '../orders';
import type { Claim } from './entities/claim';
import type { ClaimEntry } from './entities/claim-entry';
import type { ClaimItem } from './entities/claim-item';
import type { ClaimItemDecision } from './entities/claim-item-decision';
import type { ClaimPayout } from './entities/claim-payout';
import { documentsNeeded } from './rules/filing';

type DocumentType = Schemas['DocumentType'];

/** What the answer shows of a claim: the entity read back, or the row a filing just wrote (decision record 0107). */
export type ClaimShown = Pick<
  Claim,
  | 'claimRef'
  | 'claimType'
  | 'status'
  | 'incidentDate'
  | 'incidentDescription'
  | 'location'
  | 'altitudeMeters'
  | 'payee'
  | 'flags'
  | 'approvedTotal'
  | 'excessApplied'
  | 'declineReason'
  | 'decisionNote'
  | 'decidedAt'
  | 'withdrawalReason'
  | 'filedAt'
  | 'updatedAt'
> & {
  order: Pick<Order, 'orderRef' | 'policyNumber'> & { company: { id: string } };
  assistanceCase?: { caseRef: string } | null;
};

/** What the answer shows of an item. */
export type ItemShown = Pick<
  ClaimItem,
  'id' | 'position' | 'description' | 'amount' | 'currency' | 'invoiceNumber' | 'providerName'
>;

/** What the answer shows of a timeline entry. */
export type EntryShown = Pick<ClaimEntry, 'at' | 'kind' | 'by' | 'status' | 'previousStatus' | 'note' | 'documentIds'>;

/** A claim with the rows its answer shows (items in position order, documents in attachment order). */
export interface ClaimAnswer<Shown extends ClaimShown = ClaimShown, Item extends ItemShown = ItemShown> {
  claim: Shown;
  items: Item[];
  decisions: Map<string, ClaimItemDecision>;
  documents: { documentId: string; documentType: DocumentType; itemId: string | null }[];
  payout: ClaimPayout | null;
}

/** A claim's answer read back as entities. */
export type ClaimView = ClaimAnswer<Claim, ClaimItem>;

export const payoutWire = (payout: ClaimPayout): Schemas['ClaimPayout'] => ({
  amount: amountFromMinor(payout.amount),
  currency: 'NPR',
  method: payout.method,
  reference: payout.reference,
  paidOn: payout.paidOn,
});

const decisionWire = (decision: ClaimItemDecision): Schemas['ClaimItemDecision'] => ({
  approvedAmount: amountFromMinor(decision.approvedAmount),
  exchangeRate: decision.exchangeRate ?? null,
  rateDate: decision.rateDate ?? null,
  approvedNpr: amountFromMinor(decision.approvedNpr),
  note: decision.note ?? null,
});

/**
 * A claim as the contract shows it to `viewerCompanyId`: medical reports only to the company that
 * placed the order (decision record 0095: the placing company's and the desk's alone).
 */
export function claimWire(view: ClaimAnswer, viewerCompanyId: string | null, deskPhone: string): Schemas['Claim'] {
  const { claim } = view;
  const seesMedical = viewerCompanyId === null || viewerCompanyId === claim.order.company.id;
  const documents = view.documents.filter((document) => seesMedical || document.documentType !== 'MEDICAL_REPORT');
  const positionOf = new Map(view.items.map((item) => [item.id, item.position]));
  const decided = claim.decidedAt ?? null;
  return {
    claimRef: claim.claimRef,
    orderRef: claim.order.orderRef,
    policyNumber: claim.order.policyNumber ?? null,
    claimType: claim.claimType,
    status: claim.status,
    incidentDate: claim.incidentDate,
    incidentDescription: claim.incidentDescription,
    location: claim.location ?? null,
    altitudeMeters: claim.altitudeMeters ?? null,
    assistanceCaseRef: claim.assistanceCase?.caseRef ?? null,
    // Every key, null when not given yet: the desk asks for payout details before paying.
    payee: {
      type: claim.payee.type,
      method: claim.payee.method ?? null,
      accountName: claim.payee.accountName ?? null,
      bankName: claim.payee.bankName ?? null,
      accountNumber: claim.payee.accountNumber ?? null,
    },
    items: view.items.map((item) => {
      const decision = view.decisions.get(item.id);
      return {
        position: item.position,
        description: item.description,
        amount: amountFromMinor(item.amount),
        currency: item.currency,
        invoiceNumber: item.invoiceNumber,
        providerName: item.providerName,
        documentIds: documents.filter((document) => document.itemId === item.id).map((document) => document.documentId),
        decision: decision ? decisionWire(decision) : null,
      };
    }),
    documents: documents.map((document) => ({
      documentId: document.documentId,
      documentType: document.documentType,
      itemPosition: document.itemId === null ? null : (positionOf.get(document.itemId) ?? null),
    })),
    documentsNeeded: documentsNeeded(
      claim.claimType,
      view.documents.map((document) => document.documentType),
    ),
    flags: claim.flags,
    decision: decided
      ? {
          approvedTotal: amountFromMinor(claim.approvedTotal ?? 0),
          excessApplied: amountFromMinor(claim.excessApplied ?? 0),
          currency: 'NPR',
          declineReason: claim.declineReason ?? null,
          note: claim.decisionNote ?? null,
          decidedAt: decided.toISOString(),
        }
      : null,
    payout: view.payout ? payoutWire(view.payout) : null,
    withdrawalReason: claim.withdrawalReason ?? null,
    filedAt: claim.filedAt.toISOString(),
    updatedAt: claim.updatedAt.toISOString(),
    desk: {
      phone: deskPhone,
      instruction: `The claims desk assesses ${claim.claimRef}; answer its information requests with POST /claims/${claim.claimRef}/information.`,
    },
  };
}

export function claimDetailWire(
  view: ClaimAnswer,
  timeline: readonly EntryShown[],
  viewerCompanyId: string | null,
  deskPhone: string,
): Schemas['ClaimDetail'] {
  const shown = claimWire(view, viewerCompanyId, deskPhone);
  // A step's documents follow the claim's rule: a medical report the viewer may not see is not named.
  const visible = new Set(shown.documents.map((document) => document.documentId));
  return {
    ...shown,
    timeline: timeline.map((entry) => ({
      at: entry.at.toISOString(),
      kind: entry.kind,
      by: entry.by,
      status: entry.status,
      previousStatus: entry.previousStatus ?? null,
      note: entry.note ?? null,
      documentIds: entry.documentIds.filter((documentId) => visible.has(documentId)),
    })),
  };
}
