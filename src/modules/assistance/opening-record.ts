import type { EntityManager } from '@mikro-orm/postgresql';
import { dualStatement, runStatement } from '../../kernel/db/prepared-statement';
import type { newAuditEntry } from '../orders';
import type { newWebhookEvent } from '../webhooks';
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
 * WebhookEvent map (the tests read them back through those entities). The events come as one
 * JSON array: their number is the order's readers.
 */
const WRITE_OPENING = dualStatement(
  'assistance-opening-write',
  `
  with opened_case as (
    insert into assistance_case (id, created_at, updated_at, opened_at, case_ref, order_id, traveller_id, opened_by_company_id, status, category, requested_service,
      location, altitude_meters, summary, reporter, proposed_operator, coverage_notes, idempotency_key, request_fingerprint)
    values (?::uuid, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?, ?::uuid, ?::uuid, ?::uuid, ?, ?, ?, ?::jsonb, ?::int, ?, ?::jsonb, ?, ?::jsonb, ?::uuid, ?)
    returning id
  ), opening_entry as (
    insert into assistance_case_entry (id, case_id, at, kind, "by", actor, status, previous_status, note, changes)
    select ?::uuid, opened_case.id, ?::timestamptz, ?, ?, ?, ?, null, null, '{}'::jsonb from opened_case
  ), audit as (
    insert into audit_entry (id, at, actor, action, order_id, order_ref, details)
    select ?::uuid, ?::timestamptz, ?, ?, ?::uuid, ?, ?::jsonb from opened_case
  )
  insert into webhook_event (id, company_id, type, payload, created_at, status)
  select event->>'id', (event->>'companyId')::uuid, event->>'type', event->'payload', (event->>'createdAt')::timestamptz, event->>'status'
  from opened_case, jsonb_array_elements(?::jsonb) as event`,
);

/**
 * Writes a new case with its entry, audit entry and events in one statement of data-modifying
 * common table expressions: one round trip instead of a flush's BEGIN, four INSERTs and COMMIT,
 * and atomic on its own, so a case is never written without its entry, audit or events. A second
 * open case for the traveller or a reused key fails the whole statement on the case's unique
 * indexes. Prepared in auto-commit (decision 0024's reason: PostgreSQL parses and plans it once
 * per connection); inside the caller's transaction when the opening attaches documents.
 */
export async function writeOpening(em: EntityManager, rows: OpeningRows): Promise<void> {
  const { assistanceCase: c, opened, audit } = rows;
  const openedAt = c.openedAt.toISOString();
  await runStatement(em, WRITE_OPENING, [
    c.id,
    openedAt,
    openedAt,
    openedAt,
    c.caseRef,
    c.orderId,
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
    audit.id,
    audit.at.toISOString(),
    audit.actor,
    audit.action,
    audit.order,
    audit.orderRef,
    JSON.stringify(audit.details),
    JSON.stringify(rows.events),
  ]);
}
