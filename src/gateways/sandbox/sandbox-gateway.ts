import type { EntityManager } from '@mikro-orm/postgresql';
import { SandboxGatewayPayment } from '../../entities/sandbox-gateway-payment';
import { verifySignedCallback } from '../callback-signature';
import { InvalidCallbackError, type GatewayLookup, type GatewayName, type GatewayReport, type PaymentGateway } from '../gateway';

/**
 * A simulated gateway served by this process (PAYMENT_MODE=sandbox): its hosted checkout lives
 * under /sandbox/{gateway}/checkout/{paymentRef}, its ledger in `sandbox_gateway_payment`.
 */
export class SandboxGateway implements PaymentGateway {
  constructor(
    readonly name: GatewayName,
    private readonly secret: string,
    private readonly baseUrl: () => string,
    private readonly newEm: () => EntityManager,
  ) {}

  checkoutUrl(paymentRef: string): string {
    return `${this.baseUrl()}/sandbox/${this.name}/checkout/${encodeURIComponent(paymentRef)}`;
  }

  verifyCallback(query: { payload: string; signature: string }): GatewayReport {
    return verifySignedCallback(query.payload, query.signature, this.secret);
  }

  async lookupStatus(paymentRef: string): Promise<GatewayLookup> {
    const decision = await this.newEm().findOne(SandboxGatewayPayment, { paymentRef, gateway: this.name });
    if (!decision) return { decided: false };
    return { decided: true, report: reportOf(decision) };
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
