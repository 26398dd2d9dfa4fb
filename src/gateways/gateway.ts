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
}

export type GatewayRegistry = ReadonlyMap<GatewayName, PaymentGateway>;
