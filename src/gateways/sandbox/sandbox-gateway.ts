import type { EntityManager } from '@mikro-orm/postgresql';
import type { SandboxGatewayPayment } from '../../entities/sandbox-gateway-payment';
import { verifySignedCallback } from '../callback-signature';
import {
  InvalidCallbackError,
  type GatewayLookup,
  type GatewayName,
  type GatewayReport,
  type GatewayVoid,
  type PaymentGateway,
  type VoidablePayment,
} from '../gateway';
import { findSandboxDecision, recordSandboxDecision, VOIDED_BY_MERCHANT } from './sandbox-ledger';

/**
 * A simulated gateway served by this process (PAYMENT_MODE=sandbox): its hosted checkout lives
 * under /sandbox/{gateway}/checkout/{paymentRef}, its ledger in `sandbox_gateway_payment`.
 *
 * The two behave like the two kinds of provider a Nepal merchant meets. The card gateway can void
 * a payment: a void and the customer's Pay race for the one decision, and the loser learns the
 * winner's word. The wallet gateway cannot (like a wallet payment link, it stays payable until it
 * expires, whatever the merchant decided since): closing an attempt there leaves it UNDECIDED, and
 * a customer who pays it anyway is a late capture the merchant owes back.
 */
export class SandboxGateway implements PaymentGateway {
  constructor(
    readonly name: GatewayName,
    private readonly secret: string,
    private readonly baseUrl: () => string,
    private readonly newEm: () => EntityManager,
    readonly canVoid: boolean,
  ) {}

  checkoutUrl(paymentRef: string): string {
    return `${this.baseUrl()}/sandbox/${this.name}/checkout/${encodeURIComponent(paymentRef)}`;
  }

  verifyCallback(query: { payload: string; signature: string }): GatewayReport {
    return verifySignedCallback(query.payload, query.signature, this.secret);
  }

  async lookupStatus(paymentRef: string): Promise<GatewayLookup> {
    const decision = await findSandboxDecision(this.newEm(), paymentRef, this.name);
    if (!decision) return { decided: false };
    return { decided: true, report: reportOf(decision) };
  }

  async voidPayment(payment: VoidablePayment): Promise<GatewayVoid> {
    if (this.canVoid) {
      const voided = await recordSandboxDecision(this.newEm(), { ...payment, gateway: this.name, status: 'CANCELLED', reason: VOIDED_BY_MERCHANT });
      if (voided) return { kind: 'VOIDED' };
    }
    const lookup = await this.lookupStatus(payment.paymentRef);
    return lookup.decided ? { kind: 'DECIDED', report: lookup.report } : { kind: 'UNDECIDED' };
  }

  /** The sandbox's own signing, used by its checkout page to send the browser back. */
  secretForSigning(): string {
    return this.secret;
  }
}

export function reportOf(decision: SandboxGatewayPayment): GatewayReport {
  return {
    paymentRef: decision.paymentRef,
    status: decision.status,
    amount: decision.amount,
    currency: decision.currency,
    gatewayTransactionId: decision.transactionId,
    issuedAt: decision.decidedAt,
    reason: decision.reason,
  };
}

export { InvalidCallbackError };
