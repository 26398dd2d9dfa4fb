import { amountFromMinor, decimalStringFromMinor, minorFromDecimalString } from '../../kernel/money';
import type { Schemas } from '../../kernel/http/wire';
import type { Refund } from './entities/refund';
import type { RefundExportRow } from './refund-book';

/** How partners name the gateway a payment (and its refund) went through. */
const GATEWAY_WIRE = { card_gateway: 'CARD_GATEWAY', wallet_gateway: 'WALLET_GATEWAY', cash: 'CASH' } as const;

/** A refund as the contract shows it (cancellation answer, order detail, payment-status). */
export function refundWire(refund: Refund): Schemas['Refund'] {
  return {
    refundRef: refund.refundRef,
    amount: amountFromMinor(refund.amount),
    cancellationFee: amountFromMinor(refund.fee),
    status: refund.status,
    gateway: GATEWAY_WIRE[refund.gateway],
  };
}

/** A refund of the caller's company, as `GET /refunds` and `GET /refunds/{refundRef}` show it. */
export function refundDetailWire(refund: Refund): Schemas['RefundDetail'] {
  return {
    ...refundWire(refund),
    orderRef: refund.order.orderRef,
    paymentRef: refund.attempt.paymentRef,
    cause: refund.cause,
    currency: refund.currency,
    createdAt: refund.createdAt.toISOString(),
    completedAt: refund.completedAt?.toISOString() ?? null,
  };
}

/** The export's columns, in the order the spec documents. */
export const REFUND_CSV_COLUMNS = [
  'refundRef',
  'orderRef',
  'paymentRef',
  'cause',
  'status',
  'amount',
  'cancellationFee',
  'currency',
  'gateway',
  'createdAt',
  'completedAt',
] as const satisfies ReadonlyArray<keyof Schemas['RefundDetail']>;

/** One CSV row: amounts with their two decimals, a null an empty cell. */
export function refundCells(row: RefundExportRow): Array<string | null> {
  const cells: Record<(typeof REFUND_CSV_COLUMNS)[number], string | null> = {
    refundRef: row.refund_ref,
    orderRef: row.order_ref,
    paymentRef: row.payment_ref,
    cause: row.cause,
    status: row.status,
    amount: decimalStringFromMinor(minorFromDecimalString(row.amount)),
    cancellationFee: decimalStringFromMinor(minorFromDecimalString(row.fee)),
    currency: row.currency,
    gateway: GATEWAY_WIRE[row.gateway],
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
  return REFUND_CSV_COLUMNS.map((column) => cells[column]);
}
