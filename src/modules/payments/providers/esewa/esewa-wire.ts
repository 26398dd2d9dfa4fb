import { decimalStringFromMinor, minorFromDecimalString, type Minor } from '../../../../kernel/money';
import type { GatewayReport, PaymentAtGateway } from '../gateway';
import { finalOutcome, type ProviderOutcome } from '../provider-outcome';
import type { ProviderReversalKind } from '../../rules/payment-attempt';

/** The request form of eSewa ePay v2, in the order eSewa documents it. */
export interface EsewaForm {
  amount: string;
  tax_amount: string;
  total_amount: string;
  transaction_uuid: string;
  product_code: string;
  product_service_charge: string;
  product_delivery_charge: string;
  success_url: string;
  failure_url: string;
  signed_field_names: string;
  signature: string;
}

export const REQUEST_SIGNED_FIELDS = 'total_amount,transaction_uuid,product_code';

/** Amounts go to eSewa in rupees with two decimals: "4500.00". */
export const esewaAmount = (amount: Minor): string => decimalStringFromMinor(amount);

/**
 * eSewa writes amounts back as numbers (100.0) or strings, sometimes with thousands separators
 * ("4,500.0"): read them as decimal strings into paisa, never through a float; more than two
 * decimals is not a charge we made.
 */
export function minorFromEsewa(value: unknown): Minor | undefined {
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.replace(/,/g, '').trim() : '';
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) return undefined;
  return minorFromDecimalString(text);
}

/**
 * The success return's decoded `data`, every number kept as the exact text eSewa wrote
 * (`"total_amount":1000.0` reads "1000.0"): eSewa signs the text it sent, and a number re-written
 * by JavaScript ("1000") would no longer match its signature. Amounts are then read from that
 * text, exactly, by minorFromEsewa.
 */
export function parseEsewaData(json: string): unknown {
  return JSON.parse(json, (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && typeof context?.source === 'string' ? context.source : value,
  );
}

/**
 * Status-check statuses: COMPLETE, PENDING, FULL_REFUND, PARTIAL_REFUND, AMBIGUOUS, NOT_FOUND,
 * CANCELED. CANCELED is "Canceled/Reversed from eSewa side": before a capture the customer
 * cancelled, after one eSewa took the payment back, a full reversal like FULL_REFUND.
 */
const FINAL: Record<string, Pick<GatewayReport, 'status' | 'reason'> & { reversal?: ProviderReversalKind }> = {
  COMPLETE: { status: 'SUCCESS' },
  CANCELED: { status: 'CANCELLED', reason: 'CANCELLED_AT_PROVIDER', reversal: 'FULL' },
  FULL_REFUND: { status: 'FAILED', reason: 'REFUNDED_BY_PROVIDER', reversal: 'FULL' },
};

/**
 * NOT_FOUND (the session ended at eSewa) is not final for us while our signed form can still be
 * posted, so a capture may follow (see abandonedCheckout). AMBIGUOUS and PARTIAL_REFUND need an
 * operator and are logged. PENDING ("initiated but not completed yet") may still complete: eSewa
 * sends its customer to failure_url meanwhile, so that return decides nothing either.
 */
const NEEDS_OPERATOR = new Set(['AMBIGUOUS', 'PARTIAL_REFUND']);

/**
 * eSewa's error object instead of a status (`{"code":0,"error_message":"Service is currently
 * unavailable"}`, its documented outage answer): the provider unavailable, whatever the HTTP
 * status it came with. Returns what eSewa said, or undefined for a body that is no error object.
 * An unknown transaction is a status (`NOT_FOUND`), never this.
 */
export function esewaUnavailable(body: Record<string, unknown>): string | undefined {
  if (typeof body.status === 'string' || !('error_message' in body)) return undefined;
  const said = typeof body.error_message === 'string' ? body.error_message.slice(0, 200) : 'an error';
  return `status check answered "${said}" instead of a status`;
}

export function statusOutcome(
  body: Record<string, unknown>,
  payment: PaymentAtGateway,
  productCode: string,
  now: Date,
): ProviderOutcome {
  const { status, product_code: product, transaction_uuid: uuid, total_amount: total, ref_id: refId } = body;
  if (typeof status !== 'string') {
    // An error object is eSewa not answering about the payment at all (its documented outage answer
    // among them): never NOT_FOUND, which an hour after our form closed would be final.
    const unavailable = esewaUnavailable(body);
    return { kind: 'UNREADABLE', why: unavailable ?? 'status check without a status' };
  }
  const word = FINAL[status];
  if (!word)
    return {
      kind: 'OPEN',
      status,
      warn: NEEDS_OPERATOR.has(status),
      ...(status === 'PARTIAL_REFUND' && { reversal: 'PARTIAL' as const }),
    };
  if (product !== productCode || uuid !== payment.paymentRef)
    return { kind: 'UNREADABLE', why: 'status check answered about another payment' };
  const amount = minorFromEsewa(total);
  if (amount === undefined) return { kind: 'UNREADABLE', why: 'status check without a readable total_amount' };
  return finalOutcome(
    payment,
    word,
    amount,
    typeof refId === 'string' && refId !== '' ? refId : `uuid:${payment.paymentRef}`,
    now,
  );
}

/**
 * How long after our form page stopped handing out the signed form a NOT_FOUND becomes final: a
 * form a browser loaded just before the close may still be posted for a while (eSewa then knows
 * the transaction, PENDING at least), never this long after.
 */
export const ESEWA_ABANDONED_AFTER_MS = 60 * 60_000;

/**
 * A checkout nobody took to eSewa: eSewa has no transaction for it (NOT_FOUND), and our form
 * closed more than ESEWA_ABANDONED_AFTER_MS ago. It ends EXPIRED, quietly, like Khalti's
 * `Expired`, instead of being asked about for PROVIDER_DECISION_WATCH_DAYS and then handed to an
 * operator as a payment eSewa never decided.
 */
export function abandonedCheckout(outcome: ProviderOutcome, payment: PaymentAtGateway, now: Date): ProviderOutcome {
  if (outcome.kind !== 'OPEN' || outcome.status !== 'NOT_FOUND' || !payment.expiresAt) return outcome;
  if (now.getTime() < payment.expiresAt.getTime() + ESEWA_ABANDONED_AFTER_MS) return outcome;
  return finalOutcome(
    payment,
    { status: 'EXPIRED', reason: 'NOT_STARTED_AT_PROVIDER' },
    payment.amount,
    `uuid:${payment.paymentRef}`,
    now,
  );
}
