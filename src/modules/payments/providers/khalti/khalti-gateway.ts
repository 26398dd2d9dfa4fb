import type { KhaltiConfig } from './settings';
import {
  InvalidCallbackError,
  ProviderUnavailableError,
  voidFromLookup,
  type CheckoutRequest,
  type GatewayLookup,
  type GatewayName,
  type GatewayRefund,
  type GatewayVoid,
  type RefundRequest,
  type PaymentAtGateway,
  type PaymentGateway,
  type ReturnQuery,
  type StartedCheckout,
} from '../gateway';
import { asRecord, callProvider, withLookupRetries, type ProviderCallPolicy } from '../provider-http';
import { lookupFromOutcome } from '../provider-outcome';
import { ReturnLookupCache } from '../return-lookup-cache';
import { effectiveKhaltiStatus, lookupOutcome, refusalDetail, returnProblem, transactionFunding } from './khalti-wire';

/** Validated once in config (KHALTI_*), with `website_url` resolved to PUBLIC_BASE_URL when unset. */
export type KhaltiSettings = KhaltiConfig & { websiteUrl: string };

const PROVIDER = 'khalti';

/**
 * Khalti ePayment (KPG-2 web checkout). `start` initiates server side and stores the `pidx`;
 * the browser return is unsigned, so it only tells us which payment to ask about: the truth is
 * always the lookup API, under our secret key (a pidx of another merchant is not found).
 * Khalti has no API to cancel an initiated payment: a void answers from a lookup, and Khalti's
 * own `Expired` is the word that it will never capture.
 */
export class KhaltiGateway implements PaymentGateway {
  readonly provider = PROVIDER;
  private readonly returnLookups = new ReturnLookupCache();

  get checkoutMinutes(): number {
    return this.settings.linkMinutes;
  }

  constructor(
    readonly name: GatewayName,
    private readonly settings: KhaltiSettings,
    private readonly returnUrl: (paymentRef: string) => string,
    private readonly policy: ProviderCallPolicy,
  ) {}

  async start(payment: CheckoutRequest): Promise<StartedCheckout> {
    const answer = await this.call('/epayment/initiate/', {
      return_url: this.returnUrl(payment.paymentRef),
      website_url: this.settings.websiteUrl,
      amount: payment.amount,
      purchase_order_id: payment.paymentRef,
      purchase_order_name: `Trek cover ${payment.paymentRef}`,
      ...(payment.customerMobile && { customer_info: { phone: payment.customerMobile } }),
    });
    const body = asRecord(answer.body);
    if (answer.status !== 200 || typeof body.pidx !== 'string' || typeof body.payment_url !== 'string') {
      // error_key and the field messages tell the operator what Khalti refused (a key, an amount); no secret in them.
      this.policy.logger.error(
        { provider: PROVIDER, status: answer.status, errorKey: body.error_key, paymentRef: payment.paymentRef },
        'Khalti refused the payment initiation',
      );
      throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', `initiate answered HTTP ${answer.status}`);
    }
    const expiresAt = typeof body.expires_at === 'string' ? new Date(body.expires_at) : undefined;
    return {
      paymentUrl: body.payment_url,
      providerRef: body.pidx,
      ...(expiresAt && !Number.isNaN(expiresAt.getTime()) && { expiresAt }),
    };
  }

  async confirmReturn(query: ReturnQuery, payment: PaymentAtGateway): Promise<GatewayLookup> {
    const problem = returnProblem(query, payment);
    if (problem) throw new InvalidCallbackError(problem);
    const lookup = await this.returnLookups.lookup(payment.paymentRef, () => this.lookupStatus(payment));
    // A pidx Khalti does not know under our key: not our merchant's payment.
    if (lookup === NOT_FOUND) throw new InvalidCallbackError('pidx unknown to Khalti under our key');
    return lookup;
  }

  async lookupStatus(payment: PaymentAtGateway): Promise<GatewayLookup> {
    if (!payment.providerRef) return { decided: false };
    const pidx = payment.providerRef;
    const answer = await withLookupRetries(this.policy, () => this.call('/epayment/lookup/', { pidx }));
    if (answer.status === 404) return NOT_FOUND;
    // Khalti answers some final states (Expired, User canceled) with 400 and the same body.
    if (answer.status !== 200 && answer.status !== 400) {
      throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', `lookup answered HTTP ${answer.status}`);
    }
    return lookupFromOutcome(
      PROVIDER,
      lookupOutcome(asRecord(answer.body), payment, new Date()),
      payment,
      this.policy.logger,
    );
  }

  async voidPayment(payment: PaymentAtGateway): Promise<GatewayVoid> {
    // No pidx stored: no payment page of it was ever handed to anyone, so nobody can pay it.
    if (!payment.providerRef) return { kind: 'VOIDED' };
    const lookup = await this.lookupStatus(payment);
    if (lookup === NOT_FOUND) return { kind: 'UNDECIDED' };
    if (lookup.decided && lookup.report.status === 'EXPIRED') return { kind: 'VOIDED' };
    return voidFromLookup(lookup);
  }

  readonly refunds = 'API';

  /**
   * Khalti's refund API (docs.khalti.com/api/refund): POST merchant-transaction/{transaction_id}/refund/
   * beside the v2 root, no body for a full refund, `amount` in paisa for a partial one, and
   * `mobile` (the customer's Khalti account) for a bank-funded payment. The transaction id comes
   * from a lookup, which also shows, before a retry whose first try has an unknown outcome,
   * whether the money already went back. A refunded state our records do not explain (a partial
   * refund made elsewhere, or one a sibling refund of unknown outcome may have made) answers
   * MANUAL with what was seen: never a second POST, never SUCCEEDED.
   */
  async refund(request: RefundRequest): Promise<GatewayRefund> {
    const plan = await nothingSentOnFailure(() => this.refundPlan(request));
    return 'kind' in plan ? plan : this.sendRefund(request, plan);
  }

  /** What the lookup and the transaction record say to do: answer at once, or send this refund call. */
  private async refundPlan(request: RefundRequest): Promise<GatewayRefund | RefundCallPlan> {
    const { payment } = request;
    if (!payment.providerRef) return { kind: 'REFUSED', reason: 'no Khalti payment (pidx) to refund' };
    const answer = await withLookupRetries(this.policy, () =>
      this.call('/epayment/lookup/', { pidx: payment.providerRef }),
    );
    const looked = asRecord(answer.body);
    if (answer.status !== 200 && answer.status !== 400)
      throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', `lookup answered HTTP ${answer.status}`);
    // A 400 that is no lookup of this pidx (`{"detail":"Not found.","error_key":"validation_error"}`)
    // says nothing about the payment: unreadable, asked again later, as lookupStatus reads it; never a refusal.
    if (looked.pidx !== payment.providerRef || typeof looked.status !== 'string') {
      const said = refusalDetail(looked).slice(0, 200);
      throw new ProviderUnavailableError(
        PROVIDER,
        'BAD_ANSWER',
        `lookup answered HTTP ${answer.status} without a status of this pidx${said ? ` (${said})` : ''}`,
      );
    }
    const transactionId =
      typeof looked.transaction_id === 'string' && looked.transaction_id !== '' ? looked.transaction_id : null;
    const status = effectiveKhaltiStatus(looked);
    const full = request.amount + request.refundedBefore >= payment.amount && request.refundedBefore === 0;
    const seen = (what: string) =>
      `Khalti shows the payment ${status}${what}: check the merchant portal (${transactionId ?? payment.providerRef}), then confirm or retry`;
    // Khalti's lookup says whether money went back, not how much or by whom: it proves this refund
    // only when nothing else of ours can explain it (a retry, with no sibling of unknown outcome).
    const onlyUs = request.retry && !request.othersUncertain;
    if (status === 'Refunded') {
      if (onlyUs && request.amount + request.refundedBefore >= payment.amount)
        return { kind: 'REFUNDED', providerRefundRef: `khalti:${transactionId ?? payment.providerRef}` };
      return { kind: 'MANUAL', why: seen(' refunded in full, which our refunds do not account for') };
    }
    if (status === 'Partially Refunded') {
      if (onlyUs && request.refundedBefore === 0 && !full)
        return { kind: 'REFUNDED', providerRefundRef: `khalti:${transactionId ?? payment.providerRef}` };
      // A retry cannot tell its own partial refund from another; a first try with none of ours made found one made elsewhere.
      if (request.retry || (request.refundedBefore === 0 && !request.othersUncertain))
        return { kind: 'MANUAL', why: seen(' partly refunded, and our records cannot say by which refund') };
    }
    if (status !== 'Completed' && status !== 'Partially Refunded') {
      return {
        kind: 'REFUSED',
        reason: `Khalti shows the payment ${typeof looked.status === 'string' && looked.status ? looked.status : 'in no known state'}; nothing to refund`,
      };
    }
    if (!transactionId)
      throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', 'lookup gave no transaction_id to refund');
    const funding = await this.fundingOf(transactionId);
    const mobile = payment.customerMobile ?? undefined;
    if (funding === 'BANK' && !mobile) return NEEDS_MOBILE;
    // Where Khalti's transaction record did not say how the payment was funded, a mobile we have goes along: a bank refund needs it.
    return {
      transactionId,
      body: { ...(full ? {} : { amount: request.amount }), ...(mobile && funding !== 'WALLET' && { mobile }) },
    };
  }

  private async sendRefund(request: RefundRequest, { transactionId, body }: RefundCallPlan): Promise<GatewayRefund> {
    const refundUrl = `${this.rootUrl()}/merchant-transaction/${encodeURIComponent(transactionId)}/refund/`;
    const refunded = await callProvider(
      PROVIDER,
      refundUrl,
      {
        method: 'POST',
        headers: {
          Authorization: `Key ${this.settings.secretKey}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify(body),
      },
      this.policy,
    );
    const detail = refusalDetail(refunded.body);
    // Any 2xx is Khalti's yes (its documents show 200; a 201 or 204 from a proxy or a new version is no refusal).
    if (refunded.status >= 200 && refunded.status < 300)
      return { kind: 'REFUNDED', providerRefundRef: `khalti:${transactionId}` };
    if (refunded.status >= 500 || refunded.status === 429)
      throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', `refund answered HTTP ${refunded.status}`);
    if (refunded.status === 400 && /mobile/i.test(detail)) {
      if (!('mobile' in body)) return NEEDS_MOBILE;
      // The mobile we sent (the pay request's customerMobile) is not the payer's Khalti account:
      // nothing went back, and only the operator can find the right account.
      this.policy.logger.warn(
        { provider: PROVIDER, status: refunded.status, refundRef: request.refundRef, detail },
        "Khalti refused the refund to the pay request's customerMobile",
      );
      return {
        kind: 'MANUAL',
        why: `Khalti refused the refund to the customerMobile the pay request gave (${detail.slice(0, 200)}): it is not the payer's Khalti account; refund in Khalti's merchant portal, then ops refund confirm`,
      };
    }
    this.policy.logger.error(
      { provider: PROVIDER, status: refunded.status, refundRef: request.refundRef, detail },
      'Khalti refused the refund',
    );
    return {
      kind: 'REFUSED',
      reason: `Khalti refused the refund (HTTP ${refunded.status}${detail ? `: ${detail.slice(0, 200)}` : ''})`,
    };
  }

  /**
   * How Khalti says the payment was funded, from its transaction record (docs.khalti.com/api/
   * transaction_details: GET merchant-transaction/{idx}/): a bank-funded one has an `ebanker`, or
   * a `type` other than "Wallet payment". UNKNOWN when Khalti has no record of it under that id.
   */
  private async fundingOf(transactionId: string): Promise<'BANK' | 'WALLET' | 'UNKNOWN'> {
    const url = `${this.settings.baseUrl}/merchant-transaction/${encodeURIComponent(transactionId)}/`;
    const answer = await withLookupRetries(this.policy, () =>
      callProvider(
        PROVIDER,
        url,
        { method: 'GET', headers: { Authorization: `Key ${this.settings.secretKey}`, Accept: 'application/json' } },
        this.policy,
      ),
    );
    if (answer.status >= 500 || answer.status === 429)
      throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', `transaction detail answered HTTP ${answer.status}`);
    if (answer.status !== 200) return 'UNKNOWN';
    return transactionFunding(asRecord(answer.body));
  }

  /** Khalti's API root beside v2 (the refund API lives there). */
  private rootUrl(): string {
    return this.settings.baseUrl.replace(/\/v2$/, '');
  }

  private call(path: string, json: Record<string, unknown>) {
    return callProvider(
      PROVIDER,
      `${this.settings.baseUrl}${path}`,
      {
        method: 'POST',
        headers: {
          Authorization: `Key ${this.settings.secretKey}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify(json),
      },
      this.policy,
    );
  }
}

/** The refund call to send: Khalti's transaction id and the body (amount for a partial refund, the customer's mobile). */
interface RefundCallPlan {
  transactionId: string;
  body: { amount?: number; mobile?: string };
}

/** A provider failure before the refund call was sent leaves the refund's outcome known: nothing happened. */
async function nothingSentOnFailure<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ProviderUnavailableError)
      throw new ProviderUnavailableError(error.provider, error.kind, error.detail, true);
    throw error;
  }
}

const NEEDS_MOBILE: GatewayRefund = Object.freeze({
  kind: 'NEEDS_CUSTOMER_MOBILE',
  why: "Khalti refunds this bank-funded payment only to the customer's Khalti account, and the pay request gave no customerMobile: refund in Khalti's merchant portal, then ops refund confirm",
});

/** A lookup Khalti answered with 404: undecided for reconciliation, a refusal for a browser return. */
const NOT_FOUND: GatewayLookup = Object.freeze({ decided: false });
