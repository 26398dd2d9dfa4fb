import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { businessToday } from '../../kernel/business-today';
import { violatesUnique } from '../../kernel/db/unique-violation';
import { conflict, invalid, invalidField } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { minorFromAmount } from '../../kernel/money';
import { OrderStatus, resolveOrder, type Order } from '../orders';
import { OrderCancellation } from '../orders/entities/order-cancellation';
import { AssistanceCase } from '../assistance/entities/assistance-case';
import { Claim } from './entities/claim';
import { ClaimItem } from './entities/claim-item';
import { formatClaimRef } from './rules/claim-life';
import { claimRequestFingerprint } from './rules/claim-request';
import { claimFlags, coverageLineOf, duplicateInvoice, filingRefusal, repeatedInvoice } from './rules/filing';
import { attachClaimDocuments, type DocumentsToAttach } from './claim-documents';
import { fileClaimRecord } from './claim-life';
import { claimDetail } from './claim-reading';
import type { ClaimView } from './claim-wire';
import type { ClaimEntry } from './entities/claim-entry';

export type ClaimFiling = Schemas['ClaimRequest'];

/** What a filing answers: the claim with its timeline. */
export interface FiledClaim {
  view: ClaimView;
  timeline: ClaimEntry[];
  /** The key's first answer given again: nothing was filed twice (answered with Idempotency-Replayed). */
  replayed?: true;
}

const ONE_CLAIM_PER_KEY = 'claim_company_id_idempotency_key_unique';

/**
 * POST /orders/{orderRef}/claims under its Idempotency-Key, in one transaction under the order's
 * row lock: filings on one order take turns, so a repeated key finds the first claim and an
 * invoice filed twice at once is refused as a duplicate the second time. Nothing is written when
 * a rule refuses (decision record 0095).
 */
export async function fileClaim(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: ClaimFiling,
  idempotencyKey: string,
  noticeDays: number,
  now = new Date(),
): Promise<FiledClaim> {
  const key = idempotencyKey.toLowerCase();
  const today = businessToday(now);
  try {
    return await em
      .fork()
      .transactional((tx) => fileOnce(tx, principal, identifier, input, key, { noticeDays, today, now }));
  } catch (error) {
    if (!violatesUnique(error, [ONE_CLAIM_PER_KEY])) throw error;
    // Another order's filing under the same key committed first: it answers this one.
    const db = em.fork();
    const previous = await db.findOneOrFail(Claim, { filedByCompany: principal.companyId, idempotencyKey: key });
    const { order } = await resolveOrder(db, principal, identifier, { intent: 'READ', populate: [] });
    return replay(db, previous, claimRequestFingerprint(order.id, input));
  }
}

async function fileOnce(
  tx: EntityManager,
  principal: Principal,
  identifier: string,
  input: ClaimFiling,
  key: string,
  when: { noticeDays: number; today: string; now: Date },
): Promise<FiledClaim> {
  // READ access is exactly who may file: the placing company or a listed registered agency (as for assistance cases).
  const { order } = await resolveOrder(tx, principal, identifier, {
    intent: 'READ',
    populate: ['ctg', 'travelCompanies.company'],
    lockForUpdate: true,
  });
  const fingerprint = claimRequestFingerprint(order.id, input);
  const previous = await tx.findOne(Claim, { filedByCompany: principal.companyId, idempotencyKey: key });
  if (previous) return replay(tx, previous, fingerprint);
  const repeated = repeatedInvoice(input.items.map((item) => item.invoiceNumber));
  if (repeated !== null)
    throw invalidField(`items[${repeated}].invoiceNumber`, 'repeats the invoice number of another item of this claim');
  const refusal = filingRefusal({
    orderRef: order.orderRef,
    orderStatus: order.status,
    paidAt: order.paidAt ?? null,
    cancelledOn: await cancelledOn(tx, order),
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    claimType: input.claimType,
    coverageLines: order.ctg.coverage,
    incidentDate: input.incidentDate,
    today: when.today,
    noticeDays: when.noticeDays,
  });
  if (refusal) throw invalid(refusal.message).coded(refusal.code);
  const duplicate = duplicateInvoice(
    input.items.map((item) => item.invoiceNumber),
    await claimedInvoices(tx, order.id),
  );
  if (duplicate)
    throw conflict(
      `Invoice ${duplicate.invoiceNumber} is already claimed on this policy by ${duplicate.claimRef}`,
    ).coded('CLAIM_DUPLICATE_INVOICE');
  const assistanceCase = await caseOf(tx, order, input.assistanceCaseRef);
  const line = coverageLineOf(input.claimType, order.ctg.coverage);
  if (!line) throw new Error(`filingRefusal let an uncovered ${input.claimType} claim through`);
  const claim = await newClaim(tx, when.now, {
    order,
    filedByCompany: principal.companyId,
    claimType: input.claimType,
    coverageLine: line.code,
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
      maxAltitude: order.ctg.maxAltitude,
      altitudeMeters: input.altitudeMeters ?? null,
      assistanceCase: assistanceCase
        ? { altitudeMeters: assistanceCase.altitudeMeters, authorised: Boolean(assistanceCase.authorisedAt) }
        : null,
      currencies: input.items.map((item) => item.currency),
    }),
    idempotencyKey: key,
    requestFingerprint: fingerprint,
  });
  const items = input.items.map((item, index) =>
    tx.create(ClaimItem, {
      claim,
      position: index + 1,
      description: item.description,
      amount: minorFromAmount(item.amount),
      currency: item.currency,
      invoiceNumber: item.invoiceNumber.trim(),
      providerName: item.providerName,
    }),
  );
  const documents: DocumentsToAttach[] = [
    ...(input.documentIds ?? []).map((documentId, index) => ({
      field: `documentIds[${index}]`,
      documentId,
      item: null,
    })),
    ...input.items.flatMap((item, itemIndex) =>
      (item.documentIds ?? []).map((documentId, index) => ({
        field: `items[${itemIndex}].documentIds[${index}]`,
        documentId,
        item: items[itemIndex] ?? null,
      })),
    ),
  ];
  await attachClaimDocuments(tx, claim, principal.companyId, documents, when.now);
  await fileClaimRecord(tx, claim, `api:${principal.companyId}`, when.now);
  await tx.flush();
  return claimDetail(tx, claim);
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
  if (previous.requestFingerprint !== fingerprint)
    throw conflict('This Idempotency-Key was already used for a different claim; use a new key for a new claim').coded(
      'IDEMPOTENCY_KEY_REUSED',
    );
  return { ...(await claimDetail(em, previous)), replayed: true };
}

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

/** The assistance case named, which must be one of this order's (a 400 otherwise). */
async function caseOf(tx: EntityManager, order: Order, caseRef: string | undefined): Promise<AssistanceCase | null> {
  if (caseRef === undefined) return null;
  const found = await tx.findOne(AssistanceCase, { caseRef, order: order.id });
  if (!found) throw invalidField('assistanceCaseRef', `no assistance case ${caseRef} on order ${order.orderRef}`);
  return found;
}
