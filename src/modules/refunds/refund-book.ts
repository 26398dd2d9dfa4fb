import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { csvRow } from '../../kernel/csv';
import type { CsvExports, CsvExportStream } from '../../kernel/db/csv-exports';
import { invalid, notFound } from '../../kernel/errors';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import type { Principal } from '../../kernel/http/request-scope';
import { Refund } from './entities/refund';
import { refundBookFilterErrors, type RefundBookFilter } from './rules/refund-book-filters';
import { isRefundRef } from './rules/refund-life';

/**
 * Partners' reads of their refunds (decision record 0075): the refunds of the orders
 * the caller's company placed, newest first, by the filters of `GET /refunds`.
 */
/** The order asked (`sortBy`, `sortDir`; newest first by default); the reference breaks ties, so pages never overlap. */
export interface RefundBookSort {
  sortBy?: 'createdAt' | 'amount' | 'status';
  sortDir?: 'asc' | 'desc';
}

function orderOf(sort: RefundBookSort) {
  const direction = sort.sortDir ?? 'desc';
  return { [sort.sortBy ?? 'createdAt']: direction, refundRef: direction };
}
const POPULATE = ['order', 'attempt'] as const;

function whereOf(principal: Principal, filter: RefundBookFilter): FilterQuery<Refund> {
  const errors = refundBookFilterErrors(filter);
  if (Object.keys(errors).length > 0) throw invalid('Validation failed', errors);
  const created = {
    ...(filter.createdFrom ? { $gte: new Date(filter.createdFrom) } : {}),
    ...(filter.createdTo ? { $lt: new Date(filter.createdTo) } : {}),
  };
  return {
    order: { company: principal.companyId, ...(filter.orderRef ? { orderRef: filter.orderRef.toUpperCase() } : {}) },
    ...(filter.status ? { status: { $in: filter.status } } : {}),
    ...(filter.cause ? { cause: filter.cause } : {}),
    ...(Object.keys(created).length > 0 ? { createdAt: created } : {}),
  };
}

export async function listRefundBook(
  em: EntityManager,
  principal: Principal,
  query: RefundBookFilter & RefundBookSort & { page?: number; size?: number },
): Promise<{ refunds: Refund[]; request: PageRequest; total: number }> {
  const request = pageRequest(query.page, query.size);
  const [refunds, total] = await em.findAndCount(Refund, whereOf(principal, query), {
    populate: POPULATE,
    orderBy: orderOf(query),
    limit: request.size,
    offset: offsetOf(request),
  });
  return { refunds, request, total };
}

/** One refund as the export reads it: money as its decimal text, instants as node-postgres parses them. */
export interface RefundExportRow {
  refund_ref: string;
  order_ref: string;
  payment_ref: string;
  cause: Refund['cause'];
  status: Refund['status'];
  amount: string;
  fee: string;
  currency: string;
  gateway: Refund['gateway'];
  created_at: Date;
  completed_at: Date | null;
}

/** The column each sort key reads, on `refund`. */
const EXPORT_SORT_COLUMNS = { createdAt: 'created_at', amount: 'amount', status: 'status' } as const;

/**
 * Every matching refund as CSV, through the kernel's export path (decision record 0094): one
 * read-only snapshot read by a cursor in the order asked, never pages by offset, so refunds
 * recorded while the file streams are neither written twice nor push another out of it. The
 * filters are checked first, so a bad request is still a 400, not a cut stream.
 */
export function exportRefundBook(
  csvExports: CsvExports,
  principal: Principal,
  filter: RefundBookFilter & RefundBookSort,
  toCells: (refund: RefundExportRow) => Array<string | null>,
  header: readonly string[],
): Promise<CsvExportStream> {
  const errors = refundBookFilterErrors(filter);
  if (Object.keys(errors).length > 0) throw invalid('Validation failed', errors);
  const values: unknown[] = [principal.companyId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions = ['o.company_id = $1::uuid'];
  if (filter.orderRef) conditions.push(`o.order_ref = ${param(filter.orderRef.toUpperCase())}`);
  if (filter.status?.length) conditions.push(`r.status = any(${param(filter.status)}::text[])`);
  if (filter.cause) conditions.push(`r.cause = ${param(filter.cause)}`);
  if (filter.createdFrom) conditions.push(`r.created_at >= ${param(filter.createdFrom)}::timestamptz`);
  if (filter.createdTo) conditions.push(`r.created_at < ${param(filter.createdTo)}::timestamptz`);
  const direction = filter.sortDir ?? 'desc';
  const text = `select r.refund_ref, o.order_ref, a.payment_ref, r.cause, r.status, r.amount::text as amount, r.fee::text as fee,
      r.currency, r.gateway, r.created_at, r.completed_at
    from refund r join insurance_order o on o.id = r.order_id join payment_attempt a on a.id = r.attempt_id
    where ${conditions.join(' and ')}
    order by r.${EXPORT_SORT_COLUMNS[filter.sortBy ?? 'createdAt']} ${direction}, r.refund_ref ${direction}`;
  return csvExports.open<RefundExportRow>(principal.companyId, {
    header: csvRow(header),
    sql: { text, values },
    line: (row) => csvRow(toCells(row)),
  });
}

/** One refund of the caller's company; another company's answers 404, as an unknown one does. */
export async function refundOfCompany(em: EntityManager, principal: Principal, refundRef: string): Promise<Refund> {
  const ref = refundRef.trim().toUpperCase();
  const refund = isRefundRef(ref)
    ? await em.findOne(Refund, { refundRef: ref, order: { company: principal.companyId } }, { populate: POPULATE })
    : null;
  if (!refund) throw notFound(`Refund ${ref} not found`);
  return refund;
}
