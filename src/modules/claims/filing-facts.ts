import type { EntityManager } from '@mikro-orm/postgresql';
import { dualStatement, runStatement } from '../../kernel/db/prepared-statement';
import type { Schemas } from '../../kernel/http/wire';
import { present } from '../../kernel/narrow';
import { companyDocumentsLocked, companyDocumentsValues } from '../documents';

/** What filing a claim reads besides the order row it holds locked. */
export interface FilingFacts {
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
  /** The next number of the claim reference sequence; drawn only when the key is new. */
  sequence: string | null;
}

interface FactsRow {
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
}

const FILING_FACTS = dualStatement(
  'claim-filing-facts',
  `
  with named_documents as (
    ${companyDocumentsLocked()}
  )
  select c.coverage, c.max_altitude,
    array(select l.company_id::text from order_travel_company l where l.order_id = o.id order by l.position) as agency_ids,
    p.id::text as previous_claim_id, p.request_fingerprint as previous_fingerprint,
    (select to_json(x.cancelled_at) #>> '{}' from order_cancellation x where x.order_id = o.id limit 1) as cancelled_at,
    (select coalesce(json_agg(json_build_object('invoiceNumber', i.invoice_number, 'claimRef', k.claim_ref)), '[]'::json)
       from claim k join claim_item i on i.claim_id = k.id
      where k.order_id = o.id and k.status <> 'WITHDRAWN') as claimed,
    (select json_build_object('id', a.id, 'caseRef', a.case_ref, 'altitudeMeters', a.altitude_meters, 'authorised', a.authorised_at is not null)
       from assistance_case a where a.case_ref = ? and a.order_id = o.id) as assistance_case,
    (select coalesce(json_agg(d), '[]'::json) from named_documents d) as documents,
    case when p.id is null then nextval('claim_ref_seq')::text end as sequence
  from insurance_order o
    join ctg c on c.id = o.ctg_id
    left join claim p on p.filed_by_company_id = ?::uuid and p.idempotency_key = ?::uuid
  where o.id = ?::uuid`,
);

/**
 * Everything a filing reads after the order, in one statement (decision record 0107): the package,
 * the agencies, the key's claim, the cancellation, the invoices already claimed, the case named
 * and the documents named, locked. Run after the order's row lock in the same transaction, so it
 * sees every filing on the order that committed before (their invoices and their keys).
 */
export async function filingFacts(
  tx: EntityManager,
  orderId: string,
  companyId: string,
  idempotencyKey: string,
  caseRef: string | undefined,
  documentIds: readonly string[],
): Promise<FilingFacts> {
  const [row] = await runStatement<FactsRow>(tx, FILING_FACTS, [
    ...companyDocumentsValues(documentIds, companyId),
    caseRef ?? null,
    companyId,
    idempotencyKey,
    orderId,
  ]);
  const facts = present(row, `the order ${orderId} just read`);
  return {
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
