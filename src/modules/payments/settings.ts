import type { EnvReader } from '../../kernel/settings/env-reader';
import { gatewaySecretWeakness } from '../../kernel/settings/secret-strength';
import { normalisedHost } from '../../kernel/settings/host-name';
import { ESEWA_TEST_HOSTS, esewaConfig, type EsewaConfig } from './providers/esewa/settings';
import { KHALTI_TEST_HOSTS, khaltiConfig, type KhaltiConfig } from './providers/khalti/settings';

export type PaymentMode = 'sandbox' | 'live';
/** Who serves a partner-facing gateway: the built-in simulation, Khalti ePayment or eSewa ePay v2. */
export type ProviderName = 'sandbox' | 'khalti' | 'esewa';
export const PROVIDER_NAMES: readonly ProviderName[] = ['sandbox', 'khalti', 'esewa'];
type GatewayKey = 'card_gateway' | 'wallet_gateway';

/** How long and how often the payment watch (payment-watch.ts) asks providers about attempts. */
export interface WatchSettings {
  /** How long after it closed an undecided attempt is still asked about (at least 7 days). */
  decisionWatchDays: number;
  /** How long after its capture a paid attempt is asked about refunds made at the provider. */
  reversalWatchDays: number;
  /** First pause between two lookups of an undecided attempt, doubled after each, up to the cap. */
  decisionFirstSeconds: number;
  decisionMaxSeconds: number;
  /** The same for paid attempts: a reversal is rarer and less urgent than a capture. */
  reversalFirstSeconds: number;
  reversalMaxSeconds: number;
}

/** Payment settings; see docs/decisions/0027-payments.md. */
export interface PaymentConfig {
  /** `sandbox`: the two simulated gateways, in-process. Never in production. */
  mode: PaymentMode;
  /** Plain-HTTP return URLs, for the operator's internal test environment only; never in production. */
  allowHttpReturnUrl: boolean;
  /** An attempt left INITIATED this long is checked with the gateway before its status is reported. */
  reconcileAfterSeconds: number;
  /** After this the checkout no longer accepts the payment and the attempt ends EXPIRED. */
  attemptTtlMinutes: number;
  /** Period of the background reconciliation job; 0 turns the job off. */
  reconcileIntervalSeconds: number;
  /** A signed callback older than this is refused (reconciliation asks the gateway instead). */
  callbackMaxAgeSeconds: number;
  /** Shown on the hosted checkout pages. */
  merchantName: string;
  /** Per-gateway HMAC secrets from the environment; in sandbox mode missing ones are generated per DATA_DIR. */
  gatewaySecrets: Partial<Record<GatewayKey, string>>;
  /**
   * The provider behind each gateway (CARD_GATEWAY_PROVIDER, WALLET_GATEWAY_PROVIDER); `sandbox`
   * by default in sandbox mode, none in live mode (pay then answers 503, and production refuses to start).
   */
  providers: Record<GatewayKey, ProviderName | undefined>;
  khalti?: KhaltiConfig;
  esewa?: EsewaConfig;
  /** No call to a provider may take longer; pay answers 503 when one does. */
  providerTimeoutMs: number;
  /** Tries of an idempotent provider call (lookups, status checks) before it counts as failed. */
  providerLookupAttempts: number;
  /** How long and how often the payment watch asks providers about undecided and paid attempts. */
  watch: WatchSettings;
  /** Days after the payment date during which a cancellation keeps no fee (FREE_LOOK_DAYS). */
  freeLookDays: number;
  /** The fee of a cancellation after the free look, a percentage of the order's payment share. */
  cancellationFeePercent: number;
  /** Period of the refund executor's pass (retries, and refunds a kick missed); 0 turns it off. */
  refundIntervalSeconds: number;
  /** The first retry of a refund after this many seconds, doubling up to an hour. */
  refundRetryBaseSeconds: number;
  /** How long a refund whose provider cannot be reached is retried (hourly at most) before it is FAILED. */
  refundRetryDays: number;
}

/** Which provider serves each gateway, and the settings of those in use or still set: read by providersConfig. */
export type ProviderChoice = Pick<PaymentConfig, 'providers' | 'khalti' | 'esewa'>;

/** The payment settings but the providers, read in turn with the service's others. */
export function paymentsConfig(read: EnvReader, { sandboxByDefault }: { sandboxByDefault: boolean }): Omit<PaymentConfig, keyof ProviderChoice> {
  return {
    mode: read.oneOf<PaymentMode>('PAYMENT_MODE', sandboxByDefault ? 'sandbox' : 'live', ['sandbox', 'live']),
    allowHttpReturnUrl: read.boolean('ALLOW_HTTP_RETURN_URL', false),
    reconcileAfterSeconds: read.integer('PAYMENT_RECONCILE_AFTER_SECONDS', 120, 0, 86400),
    attemptTtlMinutes: read.integer('PAYMENT_ATTEMPT_TTL_MINUTES', 15, 1, 1440),
    reconcileIntervalSeconds: read.integer('PAYMENT_RECONCILE_INTERVAL_SECONDS', 60, 0, 86400),
    callbackMaxAgeSeconds: read.integer('PAYMENT_CALLBACK_MAX_AGE_SECONDS', 3600, 60, 86400),
    merchantName: read.string('PAYMENT_MERCHANT_NAME', 'Himalayan Trek Cover'),
    gatewaySecrets: {
      card_gateway: read.optional('CARD_GATEWAY_SECRET'),
      wallet_gateway: read.optional('WALLET_GATEWAY_SECRET'),
    },
    providerTimeoutMs: read.integer('PAYMENT_PROVIDER_TIMEOUT_MS', 8000, 100, 60_000),
    providerLookupAttempts: read.integer('PAYMENT_PROVIDER_LOOKUP_ATTEMPTS', 2, 1, 5),
    watch: {
      // Providers may settle a payment days after its checkout (a bank's pending transfer): never fewer than 7.
      decisionWatchDays: read.integer('PROVIDER_DECISION_WATCH_DAYS', 7, 7, 90),
      reversalWatchDays: read.integer('PAYMENT_REVERSAL_WATCH_DAYS', 30, 0, 365),
      decisionFirstSeconds: read.integer('PAYMENT_WATCH_FIRST_SECONDS', 60, 10, 3600),
      decisionMaxSeconds: read.integer('PAYMENT_WATCH_MAX_SECONDS', 21_600, 60, 86_400),
      reversalFirstSeconds: read.integer('PAYMENT_REVERSAL_WATCH_FIRST_SECONDS', 3600, 60, 86_400),
      reversalMaxSeconds: read.integer('PAYMENT_REVERSAL_WATCH_MAX_SECONDS', 86_400, 60, 7 * 86_400),
    },
    freeLookDays: read.integer('FREE_LOOK_DAYS', 14, 0, 365),
    cancellationFeePercent: read.integer('CANCELLATION_FEE_PERCENT', 10, 0, 100),
    refundIntervalSeconds: read.integer('REFUND_INTERVAL_SECONDS', 15, 0, 86400),
    refundRetryBaseSeconds: read.integer('REFUND_RETRY_BASE_SECONDS', 15, 1, 3600),
    refundRetryDays: read.integer('REFUND_RETRY_DAYS', 3, 1, 30),
  };
}

/** Payment modes production must not run with. */
export function paymentModeProblems(payments: Pick<PaymentConfig, 'mode' | 'allowHttpReturnUrl'>, isProduction: boolean): string[] {
  const problems: string[] = [];
  // Sandbox gateways approve test cards: in production they would mark unpaid orders PAID.
  if (isProduction && payments.mode === 'sandbox') problems.push('PAYMENT_MODE=sandbox is not allowed when NODE_ENV=production');
  if (isProduction && payments.allowHttpReturnUrl) problems.push('ALLOW_HTTP_RETURN_URL=true is not allowed when NODE_ENV=production');
  return problems;
}

/** Gateway secrets too weak to sign callbacks with, one line each. */
export function gatewaySecretProblems(payments: Pick<PaymentConfig, 'gatewaySecrets'>, isProduction: boolean): string[] {
  const problems: string[] = [];
  for (const [gateway, secret] of Object.entries(payments.gatewaySecrets)) {
    // A guessable callback secret lets anyone forge a signed "paid" callback.
    const weakness = secret === undefined ? undefined : gatewaySecretWeakness(secret, { production: isProduction });
    if (weakness) problems.push(`${gateway.toUpperCase()}_SECRET ${weakness}`);
  }
  return problems;
}

/** Hosts of the providers' test environments: production must not take "payments" there. */
const TEST_HOSTS: readonly string[] = [...KHALTI_TEST_HOSTS, ...ESEWA_TEST_HOSTS];

/**
 * Which provider serves each gateway, and the settings of those in use. Production fails closed:
 * every gateway needs a live provider, on HTTPS, outside the providers' test environments, with
 * credentials that are not the published test ones.
 */
export function providersConfig(read: EnvReader, { mode, isProduction: production, currency }: { mode: PaymentMode; isProduction: boolean; currency: string }): ProviderChoice {
  const fallback = mode === 'sandbox' ? 'sandbox' : undefined;
  const providerOf = (gateway: GatewayKey): ProviderName | undefined => {
    const variable = `${gateway.toUpperCase()}_PROVIDER`;
    const provider = read.optional(variable) === undefined ? fallback : read.oneOf<ProviderName>(variable, 'sandbox', PROVIDER_NAMES);
    if (provider === 'sandbox' && mode !== 'sandbox') read.problems.push(`${variable}=sandbox needs PAYMENT_MODE=sandbox`);
    if (production && provider === undefined) read.problems.push(`${variable} is not set: in production ${gateway} needs a live provider (khalti or esewa)`);
    return provider;
  };
  const providers = { card_gateway: providerOf('card_gateway'), wallet_gateway: providerOf('wallet_gateway') };
  const used = new Set(Object.values(providers));
  if ((used.has('khalti') || used.has('esewa')) && currency !== 'NPR') read.problems.push('Khalti and eSewa take NPR only: CURRENCY must be NPR');
  const providerUrl = (name: string, fallbackUrl: string): string => {
    const value = read.url(name, production ? ['https:'] : ['https:', 'http:']) ?? fallbackUrl;
    if (production && TEST_HOSTS.includes(normalisedHost(new URL(value).hostname))) read.problems.push(`${name} points at a provider's test environment, which takes no real money, while NODE_ENV=production`);
    return value;
  };
  // A provider no gateway takes new payments through keeps its settings while they are set: the
  // payments it took before a switch are still looked up and refunded there (attempt.provider).
  const khalti = used.has('khalti') || read.optional('KHALTI_SECRET_KEY') !== undefined ? khaltiConfig(read, { production, providerUrl }) : undefined;
  const esewa = used.has('esewa') || read.optional('ESEWA_SECRET_KEY') !== undefined ? esewaConfig(read, { production, providerUrl }) : undefined;
  return { providers, ...(khalti && { khalti }), ...(esewa && { esewa }) };
}
