import type { SendBatch } from '../../kernel/db/batched-transaction';
import { dualStatement } from '../../kernel/db/prepared-statement';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';
import { documentsAttachedUpdate, documentsAttachedValues } from '../documents';
import { auditEntryInsert, auditEntryValues, type newAuditEntry } from '../orders';
import { webhookEventsInsert, webhookEventsValue, type newWebhookEvent } from '../webhooks';
import type { ClaimFlag, ClaimPayee, ClaimType } from './entities/claim';
import type { BirthRecords } from './claim-life';

/** The rows of one filing, as the claims module's entities map them (the tests read them back through those). */
export interface FilingRows {
  claim: {
    id: string;
    claimRef: string;
    orderId: string;
    filedByCompanyId: string;
    claimType: ClaimType;
    coverageLine: string;
    incidentDate: string;
    incidentDescription: string;
    location: string | null;
    altitudeMeters: number | null;
    assistanceCaseId: string | null;
    payee: ClaimPayee;
    flags: ClaimFlag[];
    filedAt: Date;
    idempotencyKey: string;
    requestFingerprint: string;
  };
  items: {
    id: string;
    position: number;
    description: string;
    amount: Minor;
    currency: string;
    invoiceNumber: string;
    providerName: string;
  }[];
  /** claim_document rows; their documents are marked attached. */
  documents: { id: string; itemId: string | null; documentId: string }[];
  entry: BirthRecords['entry'] & { id: string };
  audit: ReturnType<typeof newAuditEntry>;
  events: ReturnType<typeof newWebhookEvent>[];
}

/**
 * The claim (SUBMITTED, created and updated at its filing), its items, its documents (linked and
 * marked attached), its FILED entry, its audit entry and one outbox event per reader: the rows of
 * Claim, ClaimItem, ClaimDocument, ClaimEntry, Document, AuditEntry and WebhookEvent. The SQL of
 * the tables other modules own comes from them (decision record 0106). Items, links and events
 * come as JSON arrays: their numbers vary.
 */
const WRITE_FILING = dualStatement(
  'claim-filing-write',
  `
  with filed_claim as (
    insert into claim (id, created_at, updated_at, filed_at, claim_ref, order_id, filed_by_company_id, status, claim_type, coverage_line,
      incident_date, incident_description, location, altitude_meters, assistance_case_id, payee, flags, idempotency_key, request_fingerprint)
    values (?::uuid, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?, ?::uuid, ?::uuid, 'SUBMITTED', ?, ?,
      ?::date, ?, ?, ?::int, ?::uuid, ?::jsonb, ?::jsonb, ?::uuid, ?)
    returning id
  ), filed_items as (
    insert into claim_item (id, claim_id, position, description, amount, currency, invoice_number, provider_name)
    select i.id, filed_claim.id, i.position, i.description, i.amount, i.currency, i.invoice_number, i.provider_name
      from filed_claim, jsonb_to_recordset(?::jsonb)
        as i(id uuid, position int, description text, amount numeric, currency text, invoice_number text, provider_name text)
  ), attached as (
    ${documentsAttachedUpdate()}
  ), links as (
    insert into claim_document (id, created_at, claim_id, item_id, document_id)
    select l.id, ?::timestamptz, filed_claim.id, l.item_id, l.document_id
      from filed_claim, jsonb_to_recordset(?::jsonb) as l(id uuid, item_id uuid, document_id uuid)
  ), filed_entry as (
    insert into claim_entry (id, claim_id, at, kind, "by", actor, status, previous_status, note, document_ids)
    select ?::uuid, filed_claim.id, ?::timestamptz, ?, ?, ?, ?, null, ?, '[]'::jsonb from filed_claim
  ), audit as (
    ${auditEntryInsert('filed_claim')}
  ), events as (
    ${webhookEventsInsert('filed_claim')}
  )
  select count(*)::int as written from filed_claim`,
);

/**
 * Writes a filing in one statement of data-modifying common table expressions and commits, in
 * one round trip, in the filing's transaction (which holds the order's row lock and the
 * documents' locks): instead of a flush's six INSERTs and an UPDATE. A key used twice fails the
 * whole statement on the claim's unique (company, key) index, and nothing commits.
 */
export async function writeFiling(send: SendBatch, rows: FilingRows): Promise<void> {
  const { claim: c, entry } = rows;
  const filedAt = c.filedAt.toISOString();
  const values = [
    c.id,
    filedAt,
    filedAt,
    filedAt,
    c.claimRef,
    c.orderId,
    c.filedByCompanyId,
    c.claimType,
    c.coverageLine,
    c.incidentDate,
    c.incidentDescription,
    c.location,
    c.altitudeMeters,
    c.assistanceCaseId,
    JSON.stringify(c.payee),
    JSON.stringify(c.flags),
    c.idempotencyKey,
    c.requestFingerprint,
    JSON.stringify(
      rows.items.map((item) => ({
        id: item.id,
        position: item.position,
        description: item.description,
        amount: decimalStringFromMinor(item.amount),
        currency: item.currency,
        invoice_number: item.invoiceNumber,
        provider_name: item.providerName,
      })),
    ),
    ...documentsAttachedValues(
      rows.documents.map((link) => link.documentId),
      c.filedAt,
    ),
    filedAt,
    JSON.stringify(rows.documents.map((link) => ({ id: link.id, item_id: link.itemId, document_id: link.documentId }))),
    entry.id,
    entry.at.toISOString(),
    entry.kind,
    entry.by,
    entry.actor,
    entry.status,
    entry.note ?? null,
    ...auditEntryValues(rows.audit),
    webhookEventsValue(rows.events),
  ];
  const [written] = await send<{ written: number }>([{ statement: WRITE_FILING, values }], { commit: true });
  const result = written?.[0];
  if (result?.written !== 1) throw new Error(`The filing of ${c.claimRef} wrote ${result?.written ?? 0} claims`);
}
