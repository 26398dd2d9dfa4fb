import { csvRow } from '../../kernel/csv';
import type { CsvExports, CsvExportStream } from '../../kernel/db/csv-exports';
import { decimalStringFromMinor, minorFromDecimalString } from '../../kernel/money';
import type { Principal } from '../../kernel/http/request-scope';
import type { ClaimQuery } from './claim-reading';

/** One claim as the export reads it: money as its decimal text, days as text, instants as node-postgres parses them. */
interface ClaimExportRow {
  claim_ref: string;
  order_ref: string;
  policy_number: string | null;
  claim_type: string;
  status: string;
  incident_date: string;
  assistance_case_ref: string | null;
  payee_type: string;
  flags: string[];
  items: number;
  approved_total: string | null;
  paid_amount: string | null;
  paid_on: string | null;
  filed_at: Date;
  decided_at: Date | null;
}

/** The export's columns, in the order the spec documents. */
export const CLAIM_CSV_COLUMNS = [
  'claimRef',
  'orderRef',
  'policyNumber',
  'claimType',
  'status',
  'incidentDate',
  'assistanceCaseRef',
  'payeeType',
  'flags',
  'items',
  'approvedTotal',
  'paidAmount',
  'paidOn',
  'currency',
  'filedAt',
  'decidedAt',
] as const;

const money = (text: string | null) => (text === null ? null : decimalStringFromMinor(minorFromDecimalString(text)));

function claimCells(row: ClaimExportRow): Array<string | null> {
  const cells: Record<(typeof CLAIM_CSV_COLUMNS)[number], string | null> = {
    claimRef: row.claim_ref,
    orderRef: row.order_ref,
    policyNumber: row.policy_number,
    claimType: row.claim_type,
    status: row.status,
    incidentDate: row.incident_date,
    assistanceCaseRef: row.assistance_case_ref,
    payeeType: row.payee_type,
    // A space, not a `;` or `,`: the cell stays unquoted in every spreadsheet's separator.
    flags: row.flags.join(' '),
    items: String(row.items),
    approvedTotal: money(row.approved_total),
    paidAmount: money(row.paid_amount),
    paidOn: row.paid_on,
    currency: 'NPR',
    filedAt: row.filed_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
  return CLAIM_CSV_COLUMNS.map((column) => cells[column]);
}

/** The column each sort key reads, on `claim`. */
const SORT_COLUMNS = { filedAt: 'filed_at', status: 'status' } as const;

/**
 * `GET /claims` with `Accept: text/csv`: every claim the caller may read (the filters and order of
 * the JSON page) through the kernel's export path (decision record 0094): one read-only snapshot
 * read by a cursor, never pages by offset, on the export pool, within the company's export limit.
 * The pool is `csvExports`, never `exports`: compiled to CommonJS, that name hides the module's own
 * exports (the header read `exports.CLAIM_CSV_COLUMNS` off the parameter: a 500 found by Dredd).
 */
export function exportClaims(
  csvExports: CsvExports,
  principal: Principal,
  query: ClaimQuery,
): Promise<CsvExportStream> {
  const values: unknown[] = [principal.companyId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions = [
    `(c.filed_by_company_id = $1::uuid or o.company_id = $1::uuid
      or exists (select 1 from order_travel_company t where t.order_id = o.id and t.company_id = $1::uuid))`,
  ];
  if (query.status?.length) conditions.push(`c.status = any(${param(query.status)}::text[])`);
  if (query.claimType) conditions.push(`c.claim_type = ${param(query.claimType)}`);
  if (query.orderRef) conditions.push(`o.order_ref = ${param(query.orderRef)}`);
  if (query.assistanceCaseRef) conditions.push(`ac.case_ref = ${param(query.assistanceCaseRef)}`);
  if (query.createdFrom) conditions.push(`c.filed_at >= ${param(query.createdFrom)}::timestamptz`);
  if (query.createdTo) conditions.push(`c.filed_at < ${param(query.createdTo)}::timestamptz`);
  const direction = query.sortDir === 'asc' ? 'asc' : 'desc';
  const text = `select c.claim_ref, o.order_ref, o.policy_number, c.claim_type, c.status, c.incident_date::text as incident_date,
      ac.case_ref as assistance_case_ref, c.payee->>'type' as payee_type, c.flags,
      (select count(*) from claim_item i where i.claim_id = c.id)::int as items,
      c.approved_total::text as approved_total, p.amount::text as paid_amount, p.paid_on::text as paid_on,
      c.filed_at, c.decided_at
    from claim c join insurance_order o on o.id = c.order_id
      left join assistance_case ac on ac.id = c.assistance_case_id
      left join claim_payout p on p.claim_id = c.id
    where ${conditions.join(' and ')}
    order by c.${SORT_COLUMNS[query.sortBy ?? 'filedAt']} ${direction}, c.id ${direction}`;
  return csvExports.open<ClaimExportRow>(principal.companyId, {
    header: csvRow(CLAIM_CSV_COLUMNS),
    sql: { text, values },
    line: (row) => csvRow(claimCells(row)),
  });
}
