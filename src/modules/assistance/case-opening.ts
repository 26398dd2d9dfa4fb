import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { conflict, invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { present } from '../../kernel/narrow';
import { violatesUnique } from '../../kernel/db/unique-violation';
import { Order, OrderStatus, recordAudit, resolveOrder } from '../orders';
import { AssistanceCase } from './entities/assistance-case';
import { AssistanceCaseEntry } from './entities/assistance-case-entry';
import { formatCaseRef } from './rules/case-reference';
import { caseRequestFingerprint } from './rules/case-request';
import { coverageNotes } from './rules/coverage-notes';
import { OPEN_STATUSES } from './rules/case-status';
import { attachCaseDocuments } from './case-documents';
import { recordCaseEvent } from './case-events';
import { caseReaders } from './case-readers';
import { caseView, type CaseView } from './case-reading';
import { businessToday } from '../../kernel/business-today';

export type CaseOpening = Schemas['AssistanceCaseRequest'];

/** The partial unique index of migration AssistanceCases: one open case per traveller. */
const ONE_OPEN_CASE = 'assistance_case_one_open_per_traveller';

/** Orders on which a case can be opened: paid, and not cancelled (a completed or closed trip was paid too). */
const PAID: readonly OrderStatus[] = [OrderStatus.Paid, OrderStatus.Completed, OrderStatus.Closed];

/**
 * POST /orders/{orderRef}/assistance-cases under its Idempotency-Key, in one transaction behind a
 * transaction-scoped advisory lock on (company, key), as the cancellation does: requests with one
 * key run one after another and the later ones answer the first one's case (or a 409 when they
 * asked for something else). Requests with different keys for one traveller meet at the partial
 * unique index: exactly one case is written, the others are answered 409 with it.
 */
export async function openCase(em: EntityManager, principal: Principal, identifier: string, input: CaseOpening, idempotencyKey: string, now = new Date()): Promise<CaseView & { replayed: boolean }> {
  const key = idempotencyKey.toLowerCase();
  try {
    return await em.fork().transactional((tx) => openInTransaction(tx, principal, identifier, input, key, now));
  } catch (error) {
    if (!violatesUnique(error, [ONE_OPEN_CASE])) throw error;
    // Another request opened the traveller's case between our check and our insert: name it.
    const { order } = await resolveOrder(em.fork(), principal, identifier, { intent: 'READ', populate: [] });
    throw await openCaseConflict(em.fork(), order.traveller.id);
  }
}

async function openInTransaction(tx: EntityManager, principal: Principal, identifier: string, input: CaseOpening, key: string, now: Date): Promise<CaseView & { replayed: boolean }> {
  await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`assistance:${principal.companyId}:${key}`]);
  // READ access is exactly who may open a case: the placing company or a listed registered agency.
  const { order } = await resolveOrder(tx, principal, identifier, { intent: 'READ', populate: [] });
  // One joined query for what the case needs of the order (each select-in would be a round trip more).
  await tx.findOneOrFail(Order, order.id, { populate: ['traveller', 'ctg', 'travelCompanies'], strategy: 'joined' });
  const fingerprint = caseRequestFingerprint(order.id, input);
  const previous = await tx.findOne(AssistanceCase, { openedByCompany: principal.companyId, idempotencyKey: key });
  if (previous) {
    if (previous.requestFingerprint !== fingerprint) {
      throw conflict('This Idempotency-Key was already used for a different assistance case request; use a new key for a new request').coded('IDEMPOTENCY_KEY_REUSED');
    }
    return { ...(await caseView(tx, previous)), replayed: true };
  }
  if (!PAID.includes(order.status)) {
    throw invalid(`Order ${order.orderRef} is ${order.status}; an assistance case can be opened only for a paid order that is not cancelled (call the assistance desk directly)`).coded(
      order.status === OrderStatus.Cancelled ? 'ORDER_ALREADY_CANCELLED' : 'ORDER_NOT_PAID',
    );
  }
  // A second open case for the traveller is refused by the partial unique index when this flushes (see openCase).
  const assistanceCase = tx.create(AssistanceCase, {
    caseRef: await nextCaseRef(tx, now),
    order,
    traveller: order.traveller,
    openedByCompany: principal.companyId,
    status: 'RECEIVED',
    category: input.category,
    requestedService: input.requestedService,
    location: input.location,
    altitudeMeters: input.altitudeMeters,
    summary: input.summary,
    reporter: input.reporter,
    proposedOperator: input.proposedOperator ?? null,
    coverageNotes: coverageNotes({ maxAltitude: order.ctg.maxAltitude, coverageStartDate: order.coverageStartDate, coverageEndDate: order.coverageEndDate }, input.altitudeMeters, businessToday(now)),
    openedAt: now,
    createdAt: now,
    updatedAt: now,
    idempotencyKey: key,
    requestFingerprint: fingerprint,
  });
  const documentIds = await attachCaseDocuments(tx, assistanceCase, principal.companyId, input.documentIds ?? [], now);
  const actor = `api:${principal.companyId}`;
  const opened = tx.create(AssistanceCaseEntry, { assistanceCase, at: now, kind: 'OPENED', by: 'PARTNER', actor, status: 'RECEIVED', previousStatus: null, note: null, changes: {} });
  recordAudit(tx, { actor, action: 'ASSISTANCE_CASE_OPENED', order, at: now, details: { caseRef: assistanceCase.caseRef, category: input.category, requestedService: input.requestedService } });
  recordCaseEvent(tx, assistanceCase, await caseReaders(tx, order), { type: 'assistance_case.opened', previousStatus: null, note: null, at: now });
  await tx.flush();
  // A new case's timeline is its opening and its documents those just attached: nothing to read back.
  return { assistanceCase, documentIds, timeline: [opened], replayed: false };
}

async function openCaseConflict(em: EntityManager, travellerId: string): Promise<Error> {
  const open = await em.findOne(AssistanceCase, { traveller: travellerId, status: { $in: [...OPEN_STATUSES] } });
  const named = open ? ` ${open.caseRef}` : '';
  return conflict(`Traveller ${travellerId} already has an open assistance case${named}; send an update to it instead`).coded('ASSISTANCE_CASE_ALREADY_OPEN');
}

/** `AST-<year>-<seq>` from its sequence: unique across processes, never waiting on another transaction. */
async function nextCaseRef(tx: EntityManager, now: Date): Promise<string> {
  const [row] = await tx.execute<Array<{ seq: string }>>(`select nextval('assistance_case_ref_seq')::text as seq`);
  return formatCaseRef(kathmanduToday(now).slice(0, 4), present(row, 'the nextval row').seq);
}
