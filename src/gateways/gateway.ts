import type { GatewayFinalStatus } from '../domain/payment-attempt';
import type { Minor } from '../domain/money';
import type { GatewayName } from '../entities/payment-attempt';

export type { GatewayName };
export const GATEWAY_NAMES: readonly GatewayName[] = ['card_gateway', 'wallet_gateway'];

/** A gateway's signed account of one payment, after its signature was verified. */
export interface GatewayReport {
  paymentRef: string;
  status: GatewayFinalStatus;
  amount: Minor;
  currency: string;
  gatewayTransactionId: string;
  issuedAt: Date;
  reason?: string;
}

/** Answer of a server-side status lookup: a final word, or nothing decided yet. */
export type GatewayLookup = { decided: true; report: GatewayReport } | { decided: false };

/**
 * Answer of a request to stop taking money for a payment:
 * - VOIDED: the gateway will never capture it;
 * - DECIDED: too late, the gateway had already given its final word (a capture among them);
 * - UNDECIDED: the gateway cannot void and has not decided; a capture may still come (a late
 *   capture, recorded as a refund owed).
 */
export type GatewayVoid = { kind: 'VOIDED' } | { kind: 'DECIDED'; report: GatewayReport } | { kind: 'UNDECIDED' };

/** What a gateway needs to know to void a payment it may not have heard of yet. */
export interface VoidablePayment {
  paymentRef: string;
  amount: Minor;
  currency: string;
}

export class InvalidCallbackError extends Error {
  constructor(readonly why: string) {
    super(`Invalid payment callback: ${why}`);
  }
}

/**
 * The port every payment gateway adapter implements (the two sandbox gateways here; real
 * adapters plug into the same shape).
 */
export interface PaymentGateway {
  readonly name: GatewayName;
  /** Hosted checkout page the customer's browser is sent to. */
  checkoutUrl(paymentRef: string): string;
  /** Checks the signature of a browser callback and decodes it; throws InvalidCallbackError. */
  verifyCallback(query: { payload: string; signature: string }): GatewayReport;
  /** Asks the gateway, server to server, what it decided for a payment reference. */
  lookupStatus(paymentRef: string): Promise<GatewayLookup>;
  /**
   * Asks the gateway to stop taking money for the payment, atomically with its own checkout: it
   * either voids it or reports the word it already gave. A gateway that cannot void answers
   * with a lookup (DECIDED or UNDECIDED).
   */
  voidPayment(payment: VoidablePayment): Promise<GatewayVoid>;
}

export type GatewayRegistry = ReadonlyMap<GatewayName, PaymentGateway>;
