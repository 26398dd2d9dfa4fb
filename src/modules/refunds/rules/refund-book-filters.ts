import { createdRangeErrors } from '../../../kernel/http/time-range';
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
  return createdRangeErrors(filter);
}
