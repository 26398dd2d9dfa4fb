import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { conflict, invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { violatesUnique } from '../../kernel/db/unique-violation';
import { newAuditEntry, Order, OrderStatus, resolveOrder } from '../orders';
import { isPaidOrderStatus, PAID_ORDER_STATUSES } from '../orders/entities/order';
import { newWebhookEvent } from '../webhooks';
import { AssistanceCase } from './entities/assistance-case';
import { formatCaseRef } from './rules/case-reference';
import { caseRequestFingerprint } from './rules/case-request';
import { coverageNotes } from './rules/coverage-notes';
import { OPEN_STATUSES } from './rules/case-status';
import { attachCaseDocuments } from './case-documents';
import { caseEventData } from './case-events';
import { readersOf } from './case-readers';
import { caseView } from './case-reading';
import type { CaseFacts, EntryFacts } from './case-wire';
import { openingFacts } from './opening-facts';
import { writeOpening } from './opening-record';
import { businessToday } from '../../kernel/business-today';

export type CaseOpening = Schemas['AssistanceCaseRequest'];

/** What an opening answers: the case as written (or, for a replay, as read) with its documents and timeline. */
export interface OpenedCase {
  assistanceCase: CaseFacts;
  documentIds: string[];
  timeline: EntryFacts[];
  replayed: boolean;
}

/** The partial unique index of migration AssistanceCases: one open case per traveller. */
const ONE_OPEN_CASE = 'assistance_case_one_open_per_traveller';

/** The opening request is the idempotency record: one case per (company, Idempotency-Key). */
const ONE_CASE_PER_KEY = 'assistance_case_company_id_idempotency_key_unique';

/**
 * POST /orders/{orderRef}/assistance-cases under its Idempotency-Key. Three statements: the order
 * (with the access rule), what the case needs besides (opening-facts.ts), and the case with its
 * timeline entry, audit entry and events written by one statement, which is its own transaction
 * (opening-record.ts); with documents, the write and the documents' marking share one transaction.
 *
 * The case's two unique indexes settle every race, with no lock taken before them: requests with
 * one key wait at the (company, key) index for the first to commit, and are answered its case
 * (or a 409 when they asked for something else); requests with different keys for one traveller
 * meet at the partial one-open-case index: exactly one case is written, the others are answered
 * 409 with it.
 */
export async function openCase(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: CaseOpening,
  idempotencyKey: string,
  now = new Date(),
): Promise<OpenedCase> {
  const key = idempotencyKey.toLowerCase();
  const db = em.fork();
  try {
    return input.documentIds?.length
      ? await db.transactional((tx) => openOnce(tx, principal, identifier, input, key, now))
      : await openOnce(db, principal, identifier, input, key, now);
  } catch (error) {
    if (!violatesUnique(error, [ONE_OPEN_CASE, ONE_CASE_PER_KEY])) throw error;
    // Another request wrote first, between our read and our write: its case answers this one.
    return answerAfterRace(em.fork(), principal, identifier, input, key);
  }
}

async function openOnce(
  db: EntityManager,
  principal: Principal,
  identifier: string,
  input: CaseOpening,
  key: string,
  now: Date,
): Promise<OpenedCase> {
  // READ access is exactly who may open a case: the placing company or a listed registered agency.
  const { order } = await resolveOrder(db, principal, identifier, { intent: 'READ', populate: [] });
  const facts = await openingFacts(db, order.id, principal.companyId, key);
  const fingerprint = caseRequestFingerprint(order.id, input);
  if (facts.previousCaseId)
    return replay(db, await db.findOneOrFail(AssistanceCase, facts.previousCaseId), fingerprint);
  if (!isPaidOrderStatus(order.status)) throw notOpenable(order);
  if (facts.sequence === null) throw new Error('No case reference number was drawn for a new Idempotency-Key');
  const caseId = randomUUID();
  const assistanceCase = {
    caseRef: formatCaseRef(kathmanduToday(now).slice(0, 4), facts.sequence),
    status: 'RECEIVED' as const,
    category: input.category,
    requestedService: input.requestedService,
    location: input.location,
    altitudeMeters: input.altitudeMeters,
    summary: input.summary,
    reporter: input.reporter,
    proposedOperator: input.proposedOperator ?? null,
    coverageNotes: coverageNotes(
      {
        maxAltitude: facts.maxAltitude,
        coverageStartDate: order.coverageStartDate,
        coverageEndDate: order.coverageEndDate,
      },
      input.altitudeMeters,
      businessToday(now),
    ),
    openedAt: now,
    updatedAt: now,
  };
  const actor = `api:${principal.companyId}`;
  const opened = {
    at: now,
    kind: 'OPENED' as const,
    by: 'PARTNER' as const,
    actor,
    status: 'RECEIVED' as const,
    previousStatus: null,
    note: null,
    changes: {},
  };
  const answered: CaseFacts = {
    ...assistanceCase,
    order,
    traveller: { id: order.traveller.id, name: facts.travellerName },
  };
  const event = caseEventData(answered, { type: 'assistance_case.opened', previousStatus: null, note: null, at: now });
  const written = await writeOpening(
    db,
    {
      assistanceCase: {
        ...assistanceCase,
        id: caseId,
        orderId: order.id,
        travellerId: order.traveller.id,
        openedByCompanyId: principal.companyId,
        idempotencyKey: key,
        requestFingerprint: fingerprint,
      },
      opened: { ...opened, id: randomUUID() },
      audit: newAuditEntry({
        actor,
        action: 'ASSISTANCE_CASE_OPENED',
        order,
        at: now,
        details: {
          caseRef: assistanceCase.caseRef,
          category: input.category,
          requestedService: input.requestedService,
        },
      }),
      events: readersOf(order.company.id, facts.agencyIds).map((companyId) =>
        newWebhookEvent(companyId, 'assistance_case.opened', event, now),
      ),
    },
    PAID_ORDER_STATUSES,
  );
  // The order was cancelled (or otherwise left PAID) after it was read: nothing was written.
  if (!written) throw notOpenable(await db.fork().findOneOrFail(Order, order.id, { fields: ['orderRef', 'status'] }));
  // In openCase's transaction (there is one only with documents): the case is written, the documents are locked, checked and marked.
  const documentIds = input.documentIds?.length
    ? await attachCaseDocuments(
        db,
        db.getReference(AssistanceCase, caseId),
        principal.companyId,
        input.documentIds,
        now,
      )
    : [];
  // A new case's timeline is its opening and its documents those just attached: nothing to read back.
  return { assistanceCase: answered, documentIds, timeline: [opened], replayed: false };
}

function notOpenable(order: Pick<Order, 'orderRef' | 'status'>) {
  return invalid(
    `Order ${order.orderRef} is ${order.status}; an assistance case can be opened only for a paid order that is not cancelled (call the assistance desk directly)`,
  ).coded(order.status === OrderStatus.Cancelled ? 'ORDER_ALREADY_CANCELLED' : 'ORDER_NOT_PAID');
}

/** The case already opened under the key: the same order and body replay it, anything else is a 409. */
async function replay(em: EntityManager, previous: AssistanceCase, fingerprint: string): Promise<OpenedCase> {
  if (previous.requestFingerprint !== fingerprint) {
    throw conflict(
      'This Idempotency-Key was already used for a different assistance case request; use a new key for a new request',
    ).coded('IDEMPOTENCY_KEY_REUSED');
  }
  return { ...(await caseView(em, previous)), replayed: true };
}

async function answerAfterRace(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  input: CaseOpening,
  key: string,
): Promise<OpenedCase> {
  const { order } = await resolveOrder(em, principal, identifier, { intent: 'READ', populate: [] });
  const previous = await em.findOne(AssistanceCase, { openedByCompany: principal.companyId, idempotencyKey: key });
  if (previous) return replay(em, previous, caseRequestFingerprint(order.id, input));
  const open = await em.findOne(AssistanceCase, { traveller: order.traveller.id, status: { $in: [...OPEN_STATUSES] } });
  const named = open ? ` ${open.caseRef}` : '';
  throw conflict(
    `Traveller ${order.traveller.id} already has an open assistance case${named}; send an update to it instead`,
  ).coded('ASSISTANCE_CASE_ALREADY_OPEN');
}
