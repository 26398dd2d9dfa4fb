import { randomUUID } from 'node:crypto';
import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { businessToday } from '../../kernel/business-today';
import { violatesUnique } from '../../kernel/db/unique-violation';
import { batchedTransaction, type SendBatch } from '../../kernel/db/batched-transaction';
import { conflict, invalid, invalidField, notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { minorFromAmount } from '../../kernel/money';
import { isReference, newAuditEntry, orderReadAccessOf, OrderStatus, resolveOrder, type Order } from '../orders';
import { OrderCancellation } from '../orders/entities/order-cancellation';
import { newWebhookEvent } from '../webhooks';
import { Claim } from './entities/claim';
import { ClaimItem } from './entities/claim-item';
import { formatClaimRef } from './rules/claim-life';
import { claimDocumentProblem } from './rules/claim-documents';
import { claimRequestFingerprint } from './rules/claim-request';
import { claimFlags, coverageLineOf, duplicateInvoice, filingRefusal, repeatedInvoice } from './rules/filing';
import { birthRecords } from './claim-life';
import { claimReadersOf } from './claim-readers';
import { claimDetail } from './claim-reading';
import type { ClaimAnswer, ClaimView, EntryShown } from './claim-wire';
import type { ClaimEntry } from './entities/claim-entry';
import { lockedFilingFacts, type FilingFacts } from './filing-facts';
import { writeFiling } from './filing-record';

export type ClaimFiling = Schemas['ClaimRequest'];

/** What a use case on a claim answers: the claim read back with its timeline. */
export interface FiledClaim {
  view: ClaimView;
  timeline: ClaimEntry[];
  /** The key's first answer given again: nothing was filed twice (answered with Idempotency-Replayed). */
  replayed?: true;
}

/** What a filing answers: the claim as written (or, for a replay, as read back) with its timeline. */
export interface FiledAnswer {
  view: ClaimAnswer;
  timeline: EntryShown[];
  replayed?: true;
}

const ONE_CLAIM_PER_KEY = 'claim_company_id_idempotency_key_unique';

/**
 * POST /orders/{orderRef}/claims under its Idempotency-Key, in one transaction under the order's
 * row lock: filings on one order take turns, so a repeated key finds the first claim and an
 * invoice filed twice at once is refused as a duplicate the second time. Nothing is written when
 * a rule refuses (decision record 0095). Two round trips (decision record 0107): BEGIN, the order
 * locked and what the filing reads (filing-facts.ts); every row written by one statement and
 * COMMIT (filing-record.ts); the answer is built from what was written.
 */
export async function fileClaim(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: ClaimFiling,
  idempotencyKey: string,
  noticeDays: number,
  now = new Date(),
): Promise<FiledAnswer> {
  const key = idempotencyKey.toLowerCase();
  const today = businessToday(now);
  const orderRef = await orderRefOf(em, principal, identifier);
  try {
    const filed = await batchedTransaction(em, (send) =>
      fileOnce(send, principal, identifier, orderRef, input, key, { noticeDays, today, now }),
    );
    if (!('replayOf' in filed)) return filed;
    // The key's claim, read after the transaction: it committed before the facts were read.
    const db = em.fork();
    return await replay(db, await db.findOneOrFail(Claim, filed.replayOf), filed.fingerprint);
  } catch (error) {
    if (!violatesUnique(error, [ONE_CLAIM_PER_KEY])) throw error;
    // Another order's filing under the same key committed first: it answers this one.
    const db = em.fork();
    const previous = await db.findOneOrFail(Claim, { filedByCompany: principal.companyId, idempotencyKey: key });
    const { order } = await resolveOrder(db, principal, identifier, { intent: 'READ', populate: [] });
    return replay(db, previous, claimRequestFingerprint(order.id, input));
  }
}

/**
 * The order reference the filing locks by. An `ORD-` reference is taken as it is; the other forms
 * resolveOrder accepts (order number, UUID, payment reference) are looked up through it first,
 * with its answers for what does not exist or is someone else's. The filing then applies the same
 * access rule to the order it holds locked.
 */
async function orderRefOf(em: EntityManager, principal: Principal, identifier: string): Promise<string> {
  const key = identifier.trim();
  if (isReference('ORD', key)) return key;
  const { order } = await resolveOrder(em.fork(), principal, identifier, { intent: 'READ', populate: [] });
  return order.orderRef;
}

async function fileOnce(
  send: SendBatch,
  principal: Principal,
  identifier: string,
  orderRef: string,
  input: ClaimFiling,
  key: string,
  when: { noticeDays: number; today: string; now: Date },
): Promise<FiledAnswer | { replayOf: string; fingerprint: string }> {
  const named = namedDocuments(input);
  // The order's row lock makes filings on one order take turns; the facts, read in the statement after it, see every earlier one.
  const facts = await lockedFilingFacts(
    send,
    orderRef,
    principal.companyId,
    key,
    input.assistanceCaseRef,
    named.map((entry) => entry.documentId),
  );
  if (!facts) throw notFound(`Order ${identifier} not found`);
  // READ access is exactly who may file: the placing company or a listed agency (as for assistance cases).
  orderReadAccessOf({ companyId: facts.order.companyId, listedCompanyIds: facts.agencyIds }, principal);
  const order = { ...facts.order, company: { id: facts.order.companyId } };
  const fingerprint = claimRequestFingerprint(order.id, input);
  if (facts.previous) {
    if (facts.previous.requestFingerprint !== fingerprint) throw keyReused();
    return { replayOf: facts.previous.id, fingerprint };
  }
  const repeated = repeatedInvoice(input.items.map((item) => item.invoiceNumber));
  if (repeated !== null)
    throw invalidField(`items[${repeated}].invoiceNumber`, 'repeats the invoice number of another item of this claim');
  const refusal = filingRefusal({
    orderRef: order.orderRef,
    orderStatus: order.status,
    paidAt: order.paidAt,
    // A cancelled order without its record (older than the record) counts as cancelled from the start.
    cancelledOn:
      order.status !== OrderStatus.Cancelled
        ? null
        : facts.cancelledAt
          ? kathmanduToday(facts.cancelledAt)
          : order.coverageStartDate,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    claimType: input.claimType,
    coverageLines: facts.coverageLines,
    incidentDate: input.incidentDate,
    today: when.today,
    noticeDays: when.noticeDays,
  });
  if (refusal) throw invalid(refusal.message).coded(refusal.code);
  const duplicate = duplicateInvoice(
    input.items.map((item) => item.invoiceNumber),
    facts.claimed,
  );
  if (duplicate)
    throw conflict(
      `Invoice ${duplicate.invoiceNumber} is already claimed on this policy by ${duplicate.claimRef}`,
    ).coded('CLAIM_DUPLICATE_INVOICE');
  const assistanceCase = facts.assistanceCase;
  if (input.assistanceCaseRef !== undefined && !assistanceCase)
    throw invalidField('assistanceCaseRef', `no assistance case ${input.assistanceCaseRef} on order ${order.orderRef}`);
  const line = coverageLineOf(input.claimType, facts.coverageLines);
  if (!line) throw new Error(`filingRefusal let an uncovered ${input.claimType} claim through`);
  if (facts.sequence === null) throw new Error('No claim reference number was drawn for a new Idempotency-Key');
  const documents = judgedDocuments(named, facts.documents);
  const now = when.now;
  const claim = {
    id: randomUUID(),
    claimRef: formatClaimRef(kathmanduToday(now).slice(0, 4), facts.sequence),
    order,
    claimType: input.claimType,
    status: 'SUBMITTED' as const,
    incidentDate: input.incidentDate,
    incidentDescription: input.incidentDescription,
    location: input.location ?? null,
    altitudeMeters: input.altitudeMeters ?? null,
    assistanceCase,
    payee: input.payee,
    flags: claimFlags({
      claimType: input.claimType,
      incidentDate: input.incidentDate,
      today: when.today,
      maxAltitude: facts.maxAltitude,
      altitudeMeters: input.altitudeMeters ?? null,
      assistanceCase,
      currencies: input.items.map((item) => item.currency),
    }),
    approvedTotal: null,
    excessApplied: null,
    declineReason: null,
    decisionNote: null,
    decidedAt: null,
    withdrawalReason: null,
    filedAt: now,
    updatedAt: now,
  };
  const items = input.items.map((item, index) => ({
    id: randomUUID(),
    position: index + 1,
    description: item.description,
    amount: minorFromAmount(item.amount),
    currency: item.currency,
    invoiceNumber: item.invoiceNumber.trim(),
    providerName: item.providerName,
  }));
  const links = documents.map((document) => ({
    id: randomUUID(),
    itemId: document.item === null ? null : (items[document.item]?.id ?? null),
    documentId: document.documentId,
    documentType: document.documentType,
  }));
  const actor = `api:${principal.companyId}`;
  const records = birthRecords(claim, actor, now);
  await writeFiling(send, {
    claim: {
      ...claim,
      orderId: order.id,
      filedByCompanyId: principal.companyId,
      coverageLine: line.code,
      assistanceCaseId: assistanceCase?.id ?? null,
      idempotencyKey: key,
      requestFingerprint: fingerprint,
    },
    items,
    documents: links,
    entry: { ...records.entry, id: randomUUID() },
    audit: newAuditEntry({ ...records.audit, order }),
    events: claimReadersOf(order.company.id, facts.agencyIds).map((companyId) =>
      newWebhookEvent(companyId, 'claim.submitted', records.event, now),
    ),
  });
  // The claim's answer is what was just written: nothing to read back. Documents in the order a
  // read gives them (attachment time, then id: one time for all of them here).
  return {
    view: {
      claim,
      items,
      decisions: new Map(),
      documents: [...links]
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((link) => ({ documentId: link.documentId, documentType: link.documentType, itemId: link.itemId })),
      payout: null,
    },
    timeline: [records.entry],
  };
}

/** Every document the body names, each with the field that named it (for the field error) and its item's index. */
function namedDocuments(input: ClaimFiling): { field: string; documentId: string; item: number | null }[] {
  return [
    ...(input.documentIds ?? []).map((documentId, index) => ({
      field: `documentIds[${index}]`,
      documentId,
      item: null,
    })),
    ...input.items.flatMap((item, itemIndex) =>
      (item.documentIds ?? []).map((documentId, index) => ({
        field: `items[${itemIndex}].documentIds[${index}]`,
        documentId,
        item: itemIndex,
      })),
    ),
  ];
}

/** The named documents as found (locked) among the company's, or a 400 naming the first that cannot attach. */
function judgedDocuments(
  named: ReturnType<typeof namedDocuments>,
  found: FilingFacts['documents'],
): (ReturnType<typeof namedDocuments>[number] & { documentType: FilingFacts['documents'][number]['documentType'] })[] {
  const byId = new Map(found.map((document) => [document.id, document]));
  const seen = new Set<string>();
  return named.map((entry) => {
    const document = byId.get(entry.documentId);
    const problem = claimDocumentProblem(document, seen.has(entry.documentId));
    if (problem || !document) throw invalid('Validation failed', { [entry.field]: problem ?? 'not found' });
    seen.add(entry.documentId);
    return { ...entry, documentType: document.documentType };
  });
}

type ClaimBirth = Omit<
  RequiredEntityData<Claim>,
  'claimRef' | 'status' | 'filedAt' | 'createdAt' | 'updatedAt' | 'approvedTotal' | 'excessApplied'
>;

/**
 * The one birth of a claim, SUBMITTED under a fresh `CLM-` reference: a partner's filing, or the
 * desk billing an assistance case (case-billing.ts, decision record 0101).
 */
export async function newClaim(tx: EntityManager, now: Date, birth: ClaimBirth): Promise<Claim> {
  const [row] = await tx.execute<Array<{ seq: string }>>(`select nextval('claim_ref_seq')::text as seq`);
  if (!row) throw new Error('No claim reference number was drawn');
  return tx.create(Claim, {
    ...birth,
    claimRef: formatClaimRef(kathmanduToday(now).slice(0, 4), row.seq),
    status: 'SUBMITTED',
    filedAt: now,
    createdAt: now,
    updatedAt: now,
  });
}

/** The claim already filed under the key: the same order and body replay it, anything else is a 409. */
async function replay(em: EntityManager, previous: Claim, fingerprint: string): Promise<FiledClaim> {
  if (previous.requestFingerprint !== fingerprint) throw keyReused();
  return { ...(await claimDetail(em, previous)), replayed: true };
}

const keyReused = () =>
  conflict('This Idempotency-Key was already used for a different claim; use a new key for a new claim').coded(
    'IDEMPOTENCY_KEY_REUSED',
  );

/** The Nepal day a cancelled order was cancelled; null for an order that is not. */
export async function cancelledOn(tx: EntityManager, order: Order): Promise<string | null> {
  if (order.status !== OrderStatus.Cancelled) return null;
  const cancellation = await tx.findOne(OrderCancellation, { order: order.id });
  // A cancelled order without its record (older than the record) counts as cancelled from the start.
  return cancellation ? kathmanduToday(cancellation.cancelledAt) : order.coverageStartDate;
}

/** The invoices claimed on the order by claims that still stand (a withdrawn claim frees its invoices). */
export async function claimedInvoices(
  tx: EntityManager,
  orderId: string,
): Promise<{ invoiceNumber: string; claimRef: string }[]> {
  const items = await tx.find(
    ClaimItem,
    { claim: { order: orderId, status: { $ne: 'WITHDRAWN' } } },
    { populate: ['claim'] },
  );
  return items.map((item) => ({ invoiceNumber: item.invoiceNumber, claimRef: item.claim.claimRef }));
}
