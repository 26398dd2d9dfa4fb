import type { OrderBookRow } from './order-book';
import type { Schemas } from '../../kernel/http/wire';

type OrderSummary = Schemas['OrderSummary'];

/** An order of the book as the spec's OrderSummary. */
export function orderSummaryWire(row: OrderBookRow): OrderSummary {
  return {
    orderRef: row.order_ref,
    orderNumber: row.order_number,
    status: row.status,
    paymentStatus: row.payment_status,
    policyNumber: row.policy_number,
    touristId: row.tourist_id,
    travellerName: row.traveller_name,
    routeName: row.route_name,
    departureDate: row.departure_date,
    coverageStartDate: row.coverage_start_date,
    coverageEndDate: row.coverage_end_date,
    totalAmount: Number(row.total_amount),
    currency: row.currency,
    groupRef: row.group_ref,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    cancelledAt: row.cancelled_at,
    refundRef: row.refund_ref,
    refundAmount: row.refund_amount === null ? null : Number(row.refund_amount),
    refundFee: row.refund_fee === null ? null : Number(row.refund_fee),
    refundStatus: row.refund_status,
    access: row.access,
    topUpAmount: Number(row.top_up_amount),
  };
}

/** The export's columns, in the order the spec documents: an OrderSummary's fields. */
export const ORDER_BOOK_CSV_COLUMNS = [
  'orderRef',
  'orderNumber',
  'status',
  'paymentStatus',
  'policyNumber',
  'touristId',
  'travellerName',
  'routeName',
  'departureDate',
  'coverageStartDate',
  'coverageEndDate',
  'totalAmount',
  'currency',
  'groupRef',
  'createdAt',
  'paidAt',
  'cancelledAt',
  'refundRef',
  'refundAmount',
  'refundFee',
  'refundStatus',
  'access',
  'topUpAmount',
] as const satisfies ReadonlyArray<keyof OrderSummary>;

/** One CSV row: the amount keeps its two decimals as stored, a null is an empty cell. */
export function orderBookCells(row: OrderBookRow): Array<string | null> {
  const wire = orderSummaryWire(row);
  const asStored: Partial<Record<(typeof ORDER_BOOK_CSV_COLUMNS)[number], string | null>> = {
    totalAmount: row.total_amount,
    refundAmount: row.refund_amount,
    refundFee: row.refund_fee,
    topUpAmount: row.top_up_amount,
  };
  return ORDER_BOOK_CSV_COLUMNS.map((column) =>
    column in asStored ? (asStored[column] ?? null) : (wire[column]?.toString() ?? null),
  );
}
