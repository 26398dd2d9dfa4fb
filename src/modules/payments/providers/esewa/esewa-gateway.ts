import type { EsewaConfig } from './settings';
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  InvalidCallbackError,
  ProviderUnavailableError,
  voidFromLookup,
  type CheckoutRequest,
  type GatewayLookup,
  type GatewayName,
  type GatewayRefund,
  type GatewayVoid,
  type PaymentAtGateway,
  type PaymentGateway,
  type ReturnQuery,
  type StartedCheckout,
} from '../gateway';
import { asRecord, callProvider, withLookupRetries, type ProviderCallPolicy } from '../provider-http';
import { lookupFromOutcome } from '../provider-outcome';
import { ReturnLookupCache } from '../return-lookup-cache';
import { esewaSignature, esewaSignatureMatches } from './esewa-signature';
import {
  abandonedCheckout,
  esewaAmount,
  esewaUnavailable,
  minorFromEsewa,
  parseEsewaData,
  REQUEST_SIGNED_FIELDS,
  statusOutcome,
  type EsewaForm,
} from './esewa-wire';

/** Validated once in config (ESEWA_*); the test environment's values are the defaults outside production. */
export type EsewaSettings = EsewaConfig;

const PROVIDER = 'esewa';

/** Our two pages in an eSewa payment: the one that posts the signed form, and where eSewa sends the customer back. */
export interface EsewaPages {
  checkoutPage(gateway: GatewayName, paymentRef: string): string;
  returnUrl(paymentRef: string): string;
}

/**
 * eSewa ePay v2. There is no server-side initiation: the customer's browser posts a form signed
 * with our secret. `start` hands out a page of ours (`/checkout/esewa/...`, see
 * esewa-checkout-routes) that posts it. The success return carries base64 JSON `data` signed by
 * eSewa, which is verified and then confirmed with the status-check API; the failure return
 * carries nothing, so the status check alone decides. eSewa cannot void a payment.
 */
export class EsewaGateway implements PaymentGateway {
  readonly provider = PROVIDER;
  /** ePay v2 publishes no refund API: the merchant refunds in the eSewa portal and the operator confirms it. */
  readonly refunds = 'MANUAL';

  async refund(): Promise<GatewayRefund> {
    return {
      kind: 'MANUAL',
      why: 'eSewa ePay v2 has no refund API: refund in the merchant portal, then ops refund confirm',
    };
  }

  private readonly returnLookups = new ReturnLookupCache();

  constructor(
    readonly name: GatewayName,
    private readonly settings: EsewaSettings,
    private readonly pages: EsewaPages,
    private readonly policy: ProviderCallPolicy,
  ) {}

  async start(payment: CheckoutRequest): Promise<StartedCheckout> {
    const page = new URL(this.pages.checkoutPage(this.name, payment.paymentRef));
    page.searchParams.set('t', this.checkoutToken(payment.paymentRef));
    return { paymentUrl: page.toString(), providerRef: payment.paymentRef };
  }

  /**
   * The unguessable part of our form page's link: payment references are predictable, and the
   * page hands out a signed form. Derived from the secret, so every server process agrees.
   */
  private checkoutToken(paymentRef: string): string {
    return createHmac('sha256', this.settings.secretKey)
      .update(`esewa-checkout:${paymentRef}`, 'utf8')
      .digest('base64url');
  }

  acceptsCheckoutToken(paymentRef: string, token: unknown): boolean {
    const expected = Buffer.from(this.checkoutToken(paymentRef));
    const given = Buffer.from(typeof token === 'string' ? token : '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The signed form the customer's browser posts to eSewa. */
  signedForm(payment: PaymentAtGateway): { action: string; fields: EsewaForm } {
    const total = esewaAmount(payment.amount);
    const returnUrl = this.pages.returnUrl(payment.paymentRef);
    const unsigned = {
      amount: total,
      tax_amount: '0',
      total_amount: total,
      transaction_uuid: payment.paymentRef,
      product_code: this.settings.productCode,
      product_service_charge: '0',
      product_delivery_charge: '0',
      success_url: returnUrl,
      failure_url: returnUrl,
      signed_field_names: REQUEST_SIGNED_FIELDS,
    };
    return {
      action: this.settings.formUrl,
      fields: { ...unsigned, signature: esewaSignature(unsigned, REQUEST_SIGNED_FIELDS, this.settings.secretKey) },
    };
  }

  async confirmReturn(query: ReturnQuery, payment: PaymentAtGateway): Promise<GatewayLookup> {
    if (query.data !== undefined) {
      const problem = this.dataProblem(query.data, payment);
      if (problem) throw new InvalidCallbackError(problem);
    }
    // Signed or not, the status check is the word we record: a signed COMPLETE is confirmed there too.
    return this.returnLookups.lookup(payment.paymentRef, () => this.lookupStatus(payment));
  }

  private dataProblem(data: string, payment: PaymentAtGateway): string | undefined {
    let fields: Record<string, unknown>;
    try {
      fields = asRecord(parseEsewaData(Buffer.from(data, 'base64').toString('utf8')));
    } catch {
      return 'data is not base64 JSON';
    }
    if (!esewaSignatureMatches(fields, this.settings.secretKey)) return 'signature of data does not match';
    if (fields.product_code !== this.settings.productCode) return 'data is for another merchant (product_code)';
    if (fields.transaction_uuid !== payment.paymentRef) return 'transaction_uuid is not this payment';
    if (minorFromEsewa(fields.total_amount) !== payment.amount) return "total_amount is not this payment's amount";
    return undefined;
  }

  async lookupStatus(payment: PaymentAtGateway): Promise<GatewayLookup> {
    const url = new URL(this.settings.statusUrl);
    url.searchParams.set('product_code', this.settings.productCode);
    url.searchParams.set('total_amount', esewaAmount(payment.amount));
    url.searchParams.set('transaction_uuid', payment.paymentRef);
    const body = await withLookupRetries(this.policy, async () => {
      const answer = await callProvider(
        PROVIDER,
        url.toString(),
        { method: 'GET', headers: { Accept: 'application/json' } },
        this.policy,
      );
      if (answer.status >= 500)
        throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', `status check answered HTTP ${answer.status}`);
      // Its outage answer is eSewa unavailable whatever the HTTP status (200 included): tried again like a 5xx.
      const unavailable = esewaUnavailable(asRecord(answer.body));
      if (unavailable) throw new ProviderUnavailableError(PROVIDER, 'BAD_ANSWER', unavailable);
      return asRecord(answer.body);
    });
    const now = new Date();
    return lookupFromOutcome(
      PROVIDER,
      abandonedCheckout(statusOutcome(body, payment, this.settings.productCode, now), payment, now),
      payment,
      this.policy.logger,
    );
  }

  async voidPayment(payment: PaymentAtGateway): Promise<GatewayVoid> {
    return voidFromLookup(await this.lookupStatus(payment));
  }
}
