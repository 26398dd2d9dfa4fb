import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ProviderUnavailableError } from '../../../../kernel/errors';
import { verifySignedCallback } from '../callback-signature';
import {
  InvalidCallbackError,
  voidFromLookup,
  type CheckoutRequest,
  type GatewayLookup,
  type GatewayName,
  type GatewayRefund,
  type GatewayReport,
  type RefundRequest,
  type GatewayVoid,
  type PaymentAtGateway,
  type PaymentGateway,
  type ReturnQuery,
  type StartedCheckout,
} from '../gateway';
import {
  findSandboxDecision,
  isFinalDecision,
  recordSandboxDecision,
  VOIDED_BY_MERCHANT,
  type FinalSandboxDecision,
} from './sandbox-ledger';

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
  readonly provider = 'sandbox';

  constructor(
    readonly name: GatewayName,
    private readonly secret: string,
    private readonly baseUrl: () => string,
    private readonly newEm: () => EntityManager,
    readonly canVoid: boolean,
  ) {}

  async start(payment: CheckoutRequest): Promise<StartedCheckout> {
    return { paymentUrl: this.checkoutUrl(payment.paymentRef) };
  }

  checkoutUrl(paymentRef: string): string {
    return `${this.baseUrl()}/sandbox/${this.name}/checkout/${encodeURIComponent(paymentRef)}?t=${this.checkoutToken(paymentRef)}`;
  }

  /**
   * The unguessable part of a checkout link: payment references are predictable
   * (`<orderRef>-<epochMillis>`), so the page acts only for whoever received the link from the pay
   * answer. Derived from the gateway's secret (HMAC over a `checkout:` domain that no signed
   * callback payload, being base64url, can take), so every process serves the same links.
   */
  private checkoutToken(paymentRef: string): string {
    return createHmac('sha256', this.secret).update(`checkout:${paymentRef}`, 'utf8').digest('base64url');
  }

  acceptsCheckoutToken(paymentRef: string, token: unknown): boolean {
    const expected = Buffer.from(this.checkoutToken(paymentRef));
    const given = Buffer.from(typeof token === 'string' ? token : '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The sandbox's return is self-contained: its signed payload is the gateway's word. */
  async confirmReturn(query: ReturnQuery, payment: PaymentAtGateway): Promise<GatewayLookup> {
    const report = verifySignedCallback(query.payload ?? '', query.signature ?? '', this.secret);
    if (report.paymentRef !== payment.paymentRef) throw new InvalidCallbackError('signed for another payment');
    return { decided: true, report };
  }

  async lookupStatus(payment: PaymentAtGateway): Promise<GatewayLookup> {
    const decision = await findSandboxDecision(this.newEm(), payment.paymentRef, this.name);
    // A PENDING payment looks to the merchant as a provider's pending one does: not decided yet.
    if (!isFinalDecision(decision)) return { decided: false };
    return { decided: true, report: reportOf(decision) };
  }

  async voidPayment(payment: PaymentAtGateway): Promise<GatewayVoid> {
    if (this.canVoid) {
      const { paymentRef, amount, currency } = payment;
      const voided = await recordSandboxDecision(this.newEm(), {
        paymentRef,
        amount,
        currency,
        gateway: this.name,
        status: 'CANCELLED',
        reason: VOIDED_BY_MERCHANT,
      });
      if (voided) return { kind: 'VOIDED' };
    }
    return voidFromLookup(await this.lookupStatus(payment));
  }

  /** The card gateway refunds through its API (like a card acquirer's); the wallet, like eSewa, only by hand. */
  get refunds(): 'API' | 'MANUAL' {
    return this.canVoid ? 'API' : 'MANUAL';
  }

  /**
   * The card gateway takes every refund and decides none of them by itself: the refund stays
   * PENDING until the partner's test decides it (POST /sandbox/refunds/{refundRef}/outcome), so
   * "fail the refund" is never a race with a refund that settled a moment earlier (decision
   * record 0090). To the executor that is a provider that has not answered yet: nothing was
   * refunded, it asks again on its back-off and, like any provider that never answers, gives up
   * after REFUND_RETRY_DAYS. The wallet has no refund API: its refunds are MANUAL at once.
   */
  async refund(request: RefundRequest): Promise<GatewayRefund> {
    if (!this.canVoid)
      return { kind: 'MANUAL', why: 'the sandbox wallet has no refund API: refund by hand, then ops refund confirm' };
    throw new ProviderUnavailableError(
      'sandbox',
      'UNDECIDED',
      `refund ${request.refundRef} waits for POST /sandbox/refunds/${request.refundRef}/outcome`,
      true,
    );
  }

  /** The sandbox's own signing, used by its checkout page to send the browser back. */
  secretForSigning(): string {
    return this.secret;
  }
}

export function reportOf(decision: FinalSandboxDecision): GatewayReport {
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
