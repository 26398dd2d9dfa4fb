import { Readable } from 'node:stream';
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { csvRow } from '../../kernel/csv';
import { invalid, notFound } from '../../kernel/errors';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import type { Principal } from '../../kernel/http/request-scope';
import { Refund } from './entities/refund';
import { refundBookFilterErrors, type RefundBookFilter } from './rules/refund-book-filters';
import { isRefundRef } from './rules/refund-life';

/**
 * Partners' reads of their refunds (DESIGN "Refunds in one home"): the refunds of the orders
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

/** Rows per read of the export: the most the server holds of an export at once. */
const EXPORT_BATCH = 1000;

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

/**
 * Every matching refund as CSV, read in batches as the stream is read. The filters are checked
 * before this returns, so a bad request is still a 400, not a cut stream.
 */
export function exportRefundBook(
  em: EntityManager,
  principal: Principal,
  filter: RefundBookFilter & RefundBookSort,
  toCells: (refund: Refund) => Array<string | null>,
  header: readonly string[],
): Readable {
  const where = whereOf(principal, filter);
  async function* lines() {
    yield csvRow(header);
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const batch = await em
        .fork()
        .find(Refund, where, { populate: POPULATE, orderBy: orderOf(filter), limit: EXPORT_BATCH, offset });
      for (const refund of batch) yield csvRow(toCells(refund));
      if (batch.length < EXPORT_BATCH) return;
    }
  }
  return Readable.from(lines(), { objectMode: false });
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
