import type { GatewayFinalStatus, ProviderReversalKind } from '../rules/payment-attempt';
import type { Minor } from '../../../kernel/money';
import type { GatewayName } from '../entities/payment-attempt';
import { ProviderUnavailableError } from '../../../kernel/errors';

export { ProviderUnavailableError };

export type { GatewayName };
export const GATEWAY_NAMES: readonly GatewayName[] = ['card_gateway', 'wallet_gateway'];

/** Narrows a path or query value to a gateway name without a cast. */
export const isGatewayName = (value: unknown): value is GatewayName => GATEWAY_NAMES.some((name) => name === value);

/** A gateway's account of one payment, after it was verified (signature or server-side lookup). */
export interface GatewayReport {
  paymentRef: string;
  status: GatewayFinalStatus;
  amount: Minor;
  currency: string;
  gatewayTransactionId: string;
  issuedAt: Date;
  reason?: string;
}

/**
 * Answer of a server-side status lookup: a final word, or nothing decided yet. `confirmed` marks
 * a word the provider gave us server to server (a lookup): asking twice is not a replay attack.
 * `reversal` says the provider gave money of this payment back on its own (a refund in its
 * portal, a reversal): FULL comes with a final word that is no capture (Khalti `Refunded`,
 * eSewa `FULL_REFUND` or `CANCELED`), PARTIAL with no final word. For a payment we had recorded as captured, the payment watch records it as
 * a refund; for one we had not, a full one means the capture never paid anything.
 */
export type GatewayLookup =
  | { decided: true; report: GatewayReport; confirmed?: boolean; reversal?: ProviderReversalKind }
  | { decided: false; reversal?: ProviderReversalKind };

/**
 * Answer of a request to stop taking money for a payment:
 * - VOIDED: the gateway will never capture it;
 * - DECIDED: too late, the gateway had already given its final word (a capture among them);
 * - UNDECIDED: the gateway cannot void and has not decided; a capture may still come (a late
 *   capture, recorded as a refund owed).
 */
export type GatewayVoid = { kind: 'VOIDED' } | { kind: 'DECIDED'; report: GatewayReport } | { kind: 'UNDECIDED' };

/** One payment as a gateway knows it: our reference, the provider's own (Khalti's pidx), the money. */
export interface PaymentAtGateway {
  paymentRef: string;
  /** Set once `start` returned it; absent for a payment the provider never handed a page out for. */
  providerRef?: string | null;
  amount: Minor;
  currency: string;
  /** When our attempt stopped handing out its checkout (eSewa: our form page), when the caller knows it. */
  expiresAt?: Date;
}

/** What a checkout needs to begin: the payment, when our attempt stops taking it, and the customer's mobile when the partner gave it. */
export interface CheckoutRequest extends PaymentAtGateway {
  expiresAt: Date;
  customerMobile?: string | null;
}

/**
 * Where the customer's browser goes, the provider's reference to store with the attempt, and
 * until when the provider's page takes money when it said so (Khalti's `expires_at`).
 */
export interface StartedCheckout {
  paymentUrl: string;
  providerRef?: string;
  expiresAt?: Date;
}

/** The query string of a browser return, as the provider (or a forger) wrote it. */
export type ReturnQuery = Readonly<Record<string, string | undefined>>;

export class InvalidCallbackError extends Error {
  constructor(readonly why: string) {
    super(`Invalid payment callback: ${why}`);
  }
}

/**
 * The port every payment gateway adapter implements: the built-in sandbox, Khalti ePayment and
 * eSewa ePay v2 (src/modules/payments/providers/{sandbox,khalti,esewa}).
 */
export interface PaymentGateway {
  readonly name: GatewayName;
  /** The provider behind the gateway, for logs and metrics: sandbox, khalti or esewa. */
  readonly provider: string;
  /**
   * How long the provider's own checkout page takes money once prepared (Khalti's link: 60
   * minutes), when it is longer than ours could be: an attempt stays open at least this long,
   * so a customer paying on that page in time is never a late capture.
   */
  readonly checkoutMinutes?: number;
  /** Prepares the checkout (Khalti: initiate) and returns the page the customer's browser is sent to. */
  start(payment: CheckoutRequest): Promise<StartedCheckout>;
  /**
   * Confirms a browser return about `payment`: checks what the return claims against it (and any
   * signature), then takes the provider's word (its signed data or its lookup API). Throws
   * InvalidCallbackError for a return that is not about this payment, of this merchant, for this money.
   */
  confirmReturn(query: ReturnQuery, payment: PaymentAtGateway): Promise<GatewayLookup>;
  /** Asks the gateway, server to server, what it decided for a payment. */
  lookupStatus(payment: PaymentAtGateway): Promise<GatewayLookup>;
  /**
   * Asks the gateway to stop taking money for the payment, atomically with its own checkout: it
   * either voids it or reports the word it already gave. A gateway that cannot void answers
   * with a lookup (DECIDED or UNDECIDED).
   */
  voidPayment(payment: PaymentAtGateway): Promise<GatewayVoid>;
  /** Whether the provider refunds through an API (`API`) or only by hand in its portal (`MANUAL`). */
  readonly refunds: 'API' | 'MANUAL';
  /** Gives (part of) a captured payment back, idempotently per refund (see RefundRequest.retry). */
  refund(request: RefundRequest): Promise<GatewayRefund>;
}

/**
 * The gateway adapters of a process: `get` is the one that takes new payments of a gateway (its
 * configured provider); `of` is the one of a named provider, for the payments it took before the
 * setting changed (lookups and refunds follow the attempt, not today's setting).
 */
export interface GatewayRegistry {
  get(name: GatewayName): PaymentGateway | undefined;
  of(name: GatewayName, provider: string): PaymentGateway | undefined;
  /** How many adapters there are, of any provider: none, and no payment is ever looked up. */
  readonly size: number;
}

/** One refund to make at the provider, for (part of) a captured payment. */
export interface RefundRequest {
  /** Our refund reference: the provider's idempotency key where it takes one. */
  refundRef: string;
  payment: PaymentAtGateway & { gatewayTransactionId?: string | null; customerMobile?: string | null };
  /** What goes back, in minor units (paisa); may be less than the payment (a partial refund). */
  amount: Minor;
  /**
   * Whether an earlier try of this refund may have reached the refund call with an answer never
   * learnt: the adapter looks before it refunds again, and cannot take a partial refund it sees
   * as this one's. An adapter that fails before sending the refund call throws
   * ProviderUnavailableError with `nothingSent`, so that try does not make the next a retry.
   */
  retry: boolean;
  /** The part of the payment our other refunds already gave back (a group's other shares). */
  refundedBefore: Minor;
  /**
   * Whether another of our refunds of this payment was sent with an outcome we do not know (tried,
   * not SUCCEEDED): a partial refund the provider shows may then be that one, not this one.
   */
  othersUncertain?: boolean;
}

/**
 * Answer of a refund request:
 * - REFUNDED: the money went back (now, or on an earlier try a lookup found);
 * - MANUAL: the provider has no refund API, an operator refunds in its portal and confirms;
 * - REFUSED: the provider refused for good (the reason is kept for the operator);
 * - NEEDS_CUSTOMER_MOBILE: the provider refunds this payment only with the customer's mobile
 *   (Khalti, bank-funded), which the pay request did not give: an operator refunds by hand.
 * A provider that is unavailable throws ProviderUnavailableError: the refund is tried again later.
 */
export type GatewayRefund =
  | { kind: 'REFUNDED'; providerRefundRef: string }
  | { kind: 'MANUAL'; why: string }
  | { kind: 'REFUSED'; reason: string }
  | { kind: 'NEEDS_CUSTOMER_MOBILE'; why: string };

/** The void answer of a gateway that cannot void: what its lookup says. */
export function voidFromLookup(lookup: GatewayLookup): GatewayVoid {
  return lookup.decided ? { kind: 'DECIDED', report: lookup.report } : { kind: 'UNDECIDED' };
}
