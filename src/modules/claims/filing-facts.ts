import type { SendBatch } from '../../kernel/db/batched-transaction';
import { dualStatement } from '../../kernel/db/prepared-statement';
import type { Schemas } from '../../kernel/http/wire';
import { companyDocumentsLocked, companyDocumentsValues } from '../documents';
import type { OrderStatus } from '../orders';

/** What filing a claim reads after the order's row lock: the order's columns and everything else it judges. */
export interface FilingFacts {
  /** The order's columns the filing judges and answers with. */
  order: {
    id: string;
    orderRef: string;
    status: OrderStatus;
    paidAt: Date | null;
    coverageStartDate: string;
    coverageEndDate: string;
    policyNumber: string | undefined;
    companyId: string;
  };
  /** The package's coverage lines (codes) and maximum altitude, metres. */
  coverageLines: { code: string }[];
  maxAltitude: number;
  /** The order's listed agencies, in the order's own order. */
  agencyIds: string[];
  /** The claim already filed under this company's Idempotency-Key, if any. */
  previous: { id: string; requestFingerprint: string } | null;
  /** When the order was cancelled, if it has a cancellation record. */
  cancelledAt: Date | null;
  /** The invoices claimed on the order by claims that still stand (a withdrawn claim frees its invoices). */
  claimed: { invoiceNumber: string; claimRef: string }[];
  /** The assistance case named, when it is one of this order's. */
  assistanceCase: { id: string; caseRef: string; altitudeMeters: number; authorised: boolean } | null;
  /** The named documents of the caller's company, locked until the filing commits. */
  documents: { id: string; documentType: Schemas['DocumentType']; taken: boolean }[];
  /** The next number of the claim reference sequence; drawn only for a caller who may file, under a new key. */
  sequence: string | null;
}

type FactsRow = {
  id: string;
  order_ref: string;
  /** One of OrderStatus (the table's check constraint). */
  status: OrderStatus;
  paid_at: string | null;
  coverage_start_date: string;
  coverage_end_date: string;
  policy_number: string | null;
  company_id: string;
  coverage: { code: string }[];
  max_altitude: number;
  agency_ids: string[];
  previous_claim_id: string | null;
  previous_fingerprint: string | null;
  cancelled_at: string | null;
  claimed: { invoiceNumber: string; claimRef: string }[];
  assistance_case: FilingFacts['assistanceCase'];
  documents: { id: string; document_type: Schemas['DocumentType']; taken: boolean }[];
  sequence: string | null;
};

/**
 * The order's row lock, in a statement of its own before the facts (decision record 0107): filings
 * on one order take turns, and the facts statement, which starts after the lock is granted, sees
 * every filing on the order that committed before.
 */
const ORDER_LOCKED = dualStatement(
  'claim-filing-order-lock',
  `select o.id from insurance_order o where o.order_ref = ? for update`,
);

const FILING_FACTS = dualStatement(
  'claim-filing-facts',
  `
  with named_documents as (
    ${companyDocumentsLocked()}
  )
  select o.id::text, o.order_ref, o.status, to_json(o.paid_at) #>> '{}' as paid_at,
    o.coverage_start_date::text, o.coverage_end_date::text, o.policy_number, o.company_id::text,
    c.coverage, c.max_altitude,
    array(select l.company_id::text from order_travel_company l where l.order_id = o.id order by l.position) as agency_ids,
    p.id::text as previous_claim_id, p.request_fingerprint as previous_fingerprint,
    (select to_json(x.cancelled_at) #>> '{}' from order_cancellation x where x.order_id = o.id limit 1) as cancelled_at,
    (select coalesce(json_agg(json_build_object('invoiceNumber', i.invoice_number, 'claimRef', k.claim_ref)), '[]'::json)
       from claim k join claim_item i on i.claim_id = k.id
      where k.order_id = o.id and k.status <> 'WITHDRAWN') as claimed,
    (select json_build_object('id', a.id, 'caseRef', a.case_ref, 'altitudeMeters', a.altitude_meters, 'authorised', a.authorised_at is not null)
       from assistance_case a where a.case_ref = ? and a.order_id = o.id) as assistance_case,
    (select coalesce(json_agg(d), '[]'::json) from named_documents d) as documents,
    case when p.id is null
      and (o.company_id = ?::uuid or exists (select 1 from order_travel_company l where l.order_id = o.id and l.company_id = ?::uuid))
      then nextval('claim_ref_seq')::text end as sequence
  from insurance_order o
    join ctg c on c.id = o.ctg_id
    left join claim p on p.filed_by_company_id = ?::uuid and p.idempotency_key = ?::uuid
  where o.order_ref = ?`,
);

/**
 * The order locked, then everything a filing reads, in one round trip (decision record 0107): the
 * BEGIN of the filing's transaction, the order's row lock, and one select of the order's columns,
 * the package, the agencies, the key's claim, the cancellation, the invoices already claimed, the
 * case named and the documents named, locked. Null when no order has the reference.
 */
export async function lockedFilingFacts(
  send: SendBatch,
  orderRef: string,
  companyId: string,
  idempotencyKey: string,
  caseRef: string | undefined,
  documentIds: readonly string[],
): Promise<FilingFacts | null> {
  const [, rows] = await send<FactsRow>([
    { statement: ORDER_LOCKED, values: [orderRef] },
    {
      statement: FILING_FACTS,
      values: [
        ...companyDocumentsValues(documentIds, companyId),
        caseRef ?? null,
        companyId,
        companyId,
        companyId,
        idempotencyKey,
        orderRef,
      ],
    },
  ]);
  const facts: FactsRow | undefined = rows?.[0];
  if (!facts) return null;
  return {
    order: {
      id: facts.id,
      orderRef: facts.order_ref,
      status: facts.status,
      paidAt: facts.paid_at ? new Date(facts.paid_at) : null,
      coverageStartDate: facts.coverage_start_date,
      coverageEndDate: facts.coverage_end_date,
      policyNumber: facts.policy_number ?? undefined,
      companyId: facts.company_id,
    },
    coverageLines: facts.coverage,
    maxAltitude: facts.max_altitude,
    agencyIds: facts.agency_ids,
    previous:
      facts.previous_claim_id && facts.previous_fingerprint
        ? { id: facts.previous_claim_id, requestFingerprint: facts.previous_fingerprint }
        : null,
    cancelledAt: facts.cancelled_at ? new Date(facts.cancelled_at) : null,
    claimed: facts.claimed,
    assistanceCase: facts.assistance_case,
    documents: facts.documents.map((d) => ({ id: d.id, documentType: d.document_type, taken: d.taken })),
    sequence: facts.sequence,
  };
}
