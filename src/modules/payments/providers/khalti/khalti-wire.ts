import type { GatewayReport, PaymentAtGateway, ReturnQuery } from '../gateway';
import { asRecord } from '../provider-http';
import { finalOutcome, type ProviderOutcome } from '../provider-outcome';
import type { ProviderReversalKind } from '../../rules/payment-attempt';

// Khalti's wire format (docs.khalti.com, Web Checkout KPG-2). Amounts are integer paisa on both
// the return and the lookup. Lookup statuses: Completed, Pending, Initiated, Refunded, Expired,
// User canceled, Partially Refunded; Khalti's own documents also write "Partially refunded", so
// statuses are read without regard to case, and name `Failed` among the states that "must be
// treated as failed" (with Canceled and Expired). The lookup's boolean `refunded` says money of the
// payment went back, whatever the status spells.

export type KhaltiStatus =
  'Completed' | 'Pending' | 'Initiated' | 'Refunded' | 'Expired' | 'User canceled' | 'Partially Refunded' | 'Failed';
const STATUSES: readonly KhaltiStatus[] = [
  'Completed',
  'Pending',
  'Initiated',
  'Refunded',
  'Expired',
  'User canceled',
  'Partially Refunded',
  'Failed',
];

/** A lookup's status in our one spelling, whatever case Khalti wrote it in; undefined for a status we do not know. */
export function khaltiStatus(value: unknown): KhaltiStatus | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  return STATUSES.find((status) => status.toLowerCase() === lower);
}

/**
 * The status that counts: a `Completed` payment whose `refunded` is true had part of its money
 * given back (the status may lag, or be spelt in a way we do not know).
 */
export function effectiveKhaltiStatus(body: Record<string, unknown>): KhaltiStatus | undefined {
  const status = khaltiStatus(body.status);
  return status === 'Completed' && body.refunded === true ? 'Partially Refunded' : status;
}

/**
 * Final lookup states and the word each is for us; a refund before we heard of the capture leaves
 * the order unpaid, one after it is a reversal the payment watch records (payment-watch.ts).
 */
const FINAL: Partial<
  Record<KhaltiStatus, Pick<GatewayReport, 'status' | 'reason'> & { reversal?: ProviderReversalKind }>
> = {
  Completed: { status: 'SUCCESS' },
  'User canceled': { status: 'CANCELLED', reason: 'CANCELLED_BY_CUSTOMER' },
  Expired: { status: 'EXPIRED', reason: 'EXPIRED_AT_PROVIDER' },
  // A payment Khalti failed took no money: a final word, never one to keep asking about.
  Failed: { status: 'FAILED', reason: 'FAILED_AT_PROVIDER' },
  Refunded: { status: 'FAILED', reason: 'REFUNDED_BY_PROVIDER', reversal: 'FULL' },
};

/**
 * Not decided yet. Partially Refunded keeps part of the money: for a payment we never recorded
 * as captured no order can take it (an operator's case); for a paid one it is a partial reversal.
 */
const OPEN: Partial<Record<KhaltiStatus, { warn: boolean; reversal?: ProviderReversalKind }>> = {
  Pending: { warn: false },
  Initiated: { warn: false },
  'Partially Refunded': { warn: true, reversal: 'PARTIAL' },
};

export function lookupOutcome(body: Record<string, unknown>, payment: PaymentAtGateway, now: Date): ProviderOutcome {
  const { pidx, status, total_amount: total, transaction_id: transactionId } = body;
  if (pidx !== payment.providerRef) return { kind: 'UNREADABLE', why: 'lookup answered about another pidx' };
  if (typeof status !== 'string') return { kind: 'UNREADABLE', why: 'lookup without a status' };
  const known = effectiveKhaltiStatus(body);
  if (!known) return { kind: 'OPEN', status, warn: true };
  const open = OPEN[known];
  if (open !== undefined) return { kind: 'OPEN', status: known, ...open };
  const word = FINAL[known];
  if (!word) return { kind: 'OPEN', status, warn: true };
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0)
    return { kind: 'UNREADABLE', why: 'lookup without an integer total_amount' };
  const transaction =
    typeof transactionId === 'string' && transactionId !== '' ? transactionId : `pidx:${String(pidx)}`;
  return finalOutcome(payment, word, total, transaction, now);
}

/**
 * What a browser return claims, checked against the payment before Khalti is asked: the pidx we
 * stored, our reference as purchase_order_id, our amount. Returns the reason to refuse, if any.
 */
export function returnProblem(query: ReturnQuery, payment: PaymentAtGateway): string | undefined {
  if (!payment.providerRef) return 'no Khalti payment was started for this reference';
  if (query.pidx !== payment.providerRef) return 'pidx is not the one Khalti gave for this payment';
  if (query.purchase_order_id !== undefined && query.purchase_order_id !== payment.paymentRef)
    return 'purchase_order_id is not this payment';
  for (const field of ['amount', 'total_amount'] as const) {
    const value = query[field];
    if (value !== undefined && value !== '' && value !== String(payment.amount))
      return `${field} is not this payment's amount in paisa`;
  }
  return undefined;
}

/**
 * How a payment was funded, from Khalti's transaction record (`type.name`, `ebanker`): wallet
 * payments are refunded to the wallet; any other (e-banking, mobile banking, connectIPS, card)
 * needs the customer's Khalti mobile with the refund.
 */
export function transactionFunding(record: Record<string, unknown>): 'BANK' | 'WALLET' | 'UNKNOWN' {
  const type = record.type;
  const typeName =
    typeof type === 'object' && type !== null && 'name' in type && typeof type.name === 'string'
      ? type.name.trim().toLowerCase()
      : undefined;
  if (record.ebanker !== null && record.ebanker !== undefined) return 'BANK';
  if (typeName === undefined) return 'UNKNOWN';
  return typeName === 'wallet payment' ? 'WALLET' : 'BANK';
}

/** The words of a Khalti error body: `detail`, or the field messages of a validation error. */
export function refusalDetail(body: unknown): string {
  const record = asRecord(body);
  if (typeof record.detail === 'string') return record.detail;
  return Object.entries(record)
    .filter(([key]) => key !== 'error_key' && key !== 'status_code')
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(' ') : String(value)}`)
    .join('; ');
}
