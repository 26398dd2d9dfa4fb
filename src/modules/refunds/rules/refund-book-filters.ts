import type { RefundCause, RefundStatus } from './refund-life';

/** The filters of `GET /refunds`, as the contract's schema let them through. */
export interface RefundBookFilter {
  status?: RefundStatus[];
  cause?: RefundCause;
  orderRef?: string;
  createdFrom?: string;
  createdTo?: string;
}

/** What the schema cannot say about the filters: a time range the right way round. */
export function refundBookFilterErrors(filter: RefundBookFilter): Record<string, string> {
  const errors: Record<string, string> = {};
  const from = filter.createdFrom === undefined ? undefined : Date.parse(filter.createdFrom);
  const to = filter.createdTo === undefined ? undefined : Date.parse(filter.createdTo);
  if (from !== undefined && Number.isNaN(from)) errors.createdFrom = 'must be an RFC 3339 date-time with its offset';
  if (to !== undefined && Number.isNaN(to)) errors.createdTo = 'must be an RFC 3339 date-time with its offset';
  if (from !== undefined && to !== undefined && !Number.isNaN(from) && !Number.isNaN(to) && from >= to) errors.createdFrom = 'must be before createdTo';
  return errors;
}
