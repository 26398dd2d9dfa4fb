import type { EntityManager } from '@mikro-orm/postgresql';
import { dualStatement, runStatement } from '../../kernel/db/prepared-statement';
import { auditEntryInsert, auditEntryValues, type newAuditEntry } from '../orders';
import { webhookEventsInsert, webhookEventsValue, type newWebhookEvent } from '../webhooks';
import type { CaseLocation, CaseReporter } from './entities/assistance-case';
import type { CaseEntryKind } from './entities/assistance-case-entry';
import type { CoverageNote } from './rules/coverage-notes';
import type { CaseStatus } from './rules/case-status';

export interface OpeningRows {
  assistanceCase: {
    id: string;
    caseRef: string;
    orderId: string;
    travellerId: string;
    openedByCompanyId: string;
    status: CaseStatus;
    category: string;
    requestedService: string;
    location: CaseLocation;
    altitudeMeters: number;
    summary: string;
    reporter: CaseReporter;
    proposedOperator: string | null;
    coverageNotes: CoverageNote[];
    openedAt: Date;
    idempotencyKey: string;
    requestFingerprint: string;
  };
  opened: { id: string; at: Date; kind: CaseEntryKind; by: 'PARTNER'; actor: string; status: CaseStatus };
  audit: ReturnType<typeof newAuditEntry>;
  events: ReturnType<typeof newWebhookEvent>[];
}

/**
 * The case (created and updated at its opening), its OPENED timeline entry, its audit entry and
 * one outbox event per reader, the rows AssistanceCase, AssistanceCaseEntry, AuditEntry and
 * WebhookEvent map (the tests read them back through those entities). The audit entry's and the
 * events' SQL comes from their owners, orders and webhooks (decision 0106). The events come as one
 * JSON array: their number is the order's readers.
 *
 * `paid_order` re-reads the order's status inside the write, under a share lock: a cancellation
 * that commits between the use case's read and this statement would otherwise leave an open case
 * on a cancelled order (the foreign key's lock does not wait for a status change). When it finds
 * no paid order, nothing is written and `written` is 0.
 */
const WRITE_OPENING = dualStatement(
  'assistance-opening-write',
  `
  with paid_order as (
    select id from insurance_order where id = ?::uuid and status = any(?::text[]) for share
  ), opened_case as (
    insert into assistance_case (id, created_at, updated_at, opened_at, case_ref, order_id, traveller_id, opened_by_company_id, status, category, requested_service,
      location, altitude_meters, summary, reporter, proposed_operator, coverage_notes, idempotency_key, request_fingerprint)
    select ?::uuid, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?, paid_order.id, ?::uuid, ?::uuid, ?, ?, ?, ?::jsonb, ?::int, ?, ?::jsonb, ?, ?::jsonb, ?::uuid, ?
      from paid_order
    returning id
  ), opening_entry as (
    insert into assistance_case_entry (id, case_id, at, kind, "by", actor, status, previous_status, note, changes)
    select ?::uuid, opened_case.id, ?::timestamptz, ?, ?, ?, ?, null, null, '{}'::jsonb from opened_case
  ), audit as (
    ${auditEntryInsert('opened_case')}
  ), events as (
    ${webhookEventsInsert('opened_case')}
  )
  select count(*)::int as written from opened_case`,
);

/**
 * Writes a new case with its entry, audit entry and events in one statement of data-modifying
 * common table expressions, if the order is still in one of `paidStatuses` (false when it is not): one round trip instead of a flush's BEGIN, four INSERTs and COMMIT,
 * and atomic on its own, so a case is never written without its entry, audit or events. A second
 * open case for the traveller or a reused key fails the whole statement on the case's unique
 * indexes. Prepared in auto-commit (decision 0024's reason: PostgreSQL parses and plans it once
 * per connection); inside the caller's transaction when the opening attaches documents.
 */
export async function writeOpening(
  em: EntityManager,
  rows: OpeningRows,
  paidStatuses: readonly string[],
): Promise<boolean> {
  const { assistanceCase: c, opened, audit } = rows;
  const openedAt = c.openedAt.toISOString();
  const [result] = await runStatement<{ written: number }>(em, WRITE_OPENING, [
    c.orderId,
    `{${paidStatuses.join(',')}}`,
    c.id,
    openedAt,
    openedAt,
    openedAt,
    c.caseRef,
    c.travellerId,
    c.openedByCompanyId,
    c.status,
    c.category,
    c.requestedService,
    JSON.stringify(c.location),
    c.altitudeMeters,
    c.summary,
    JSON.stringify(c.reporter),
    c.proposedOperator,
    JSON.stringify(c.coverageNotes),
    c.idempotencyKey,
    c.requestFingerprint,
    opened.id,
    opened.at.toISOString(),
    opened.kind,
    opened.by,
    opened.actor,
    opened.status,
    ...auditEntryValues(audit),
    webhookEventsValue(rows.events),
  ]);
  return result?.written === 1;
}
