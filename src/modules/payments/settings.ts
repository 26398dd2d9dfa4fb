import { z } from 'zod';
import {
  anyText,
  flag,
  integer,
  oneOf,
  readEnv,
  url,
  type EnvReading,
  type TextVariable,
} from '../../kernel/settings/env-schema';
import { gatewaySecretWeakness } from '../../kernel/settings/secret-strength';
import { normalisedHost } from '../../kernel/settings/host-name';
import { ESEWA_TEST_HOSTS, esewaConfig, type EsewaConfig } from './providers/esewa/settings';
import { KHALTI_TEST_HOSTS, khaltiConfig, type KhaltiConfig } from './providers/khalti/settings';

export type PaymentMode = 'sandbox' | 'live';
/** Who serves a partner-facing gateway: the built-in simulation, Khalti ePayment or eSewa ePay v2. */
export type ProviderName = 'sandbox' | 'khalti' | 'esewa';
export const PROVIDER_NAMES = ['sandbox', 'khalti', 'esewa'] as const satisfies readonly ProviderName[];
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
  /** The payment watch checks an attempt left INITIATED this long with its gateway. */
  reconcileAfterSeconds: number;
  /**
   * How long payment-status reuses a gateway's answer about one open checkout (0: it asks on
   * every call); the longest a decision the customer's browser never brought back stays unseen.
   */
  statusLookupSeconds: number;
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

const paymentsEnv = ({ sandboxByDefault }: { sandboxByDefault: boolean }) =>
  z.object({
    PAYMENT_MODE: oneOf(['sandbox', 'live']).default(sandboxByDefault ? 'sandbox' : 'live'),
    ALLOW_HTTP_RETURN_URL: flag().default(false),
    PAYMENT_RECONCILE_AFTER_SECONDS: integer(0, 86400).default(120),
    PAYMENT_STATUS_LOOKUP_SECONDS: integer(0, 60).default(5),
    PAYMENT_ATTEMPT_TTL_MINUTES: integer(1, 1440).default(15),
    PAYMENT_RECONCILE_INTERVAL_SECONDS: integer(0, 86400).default(60),
    PAYMENT_CALLBACK_MAX_AGE_SECONDS: integer(60, 86400).default(3600),
    PAYMENT_MERCHANT_NAME: anyText().default('Himalayan Trek Cover'),
    CARD_GATEWAY_SECRET: anyText().optional(),
    WALLET_GATEWAY_SECRET: anyText().optional(),
    PAYMENT_PROVIDER_TIMEOUT_MS: integer(100, 60_000).default(8000),
    PAYMENT_PROVIDER_LOOKUP_ATTEMPTS: integer(1, 5).default(2),
    // Providers may settle a payment days after its checkout (a bank's pending transfer): never fewer than 7.
    PROVIDER_DECISION_WATCH_DAYS: integer(7, 90).default(7),
    PAYMENT_REVERSAL_WATCH_DAYS: integer(0, 365).default(30),
    PAYMENT_WATCH_FIRST_SECONDS: integer(10, 3600).default(60),
    PAYMENT_WATCH_MAX_SECONDS: integer(60, 86_400).default(21_600),
    PAYMENT_REVERSAL_WATCH_FIRST_SECONDS: integer(60, 86_400).default(3600),
    PAYMENT_REVERSAL_WATCH_MAX_SECONDS: integer(60, 7 * 86_400).default(86_400),
    FREE_LOOK_DAYS: integer(0, 365).default(14),
    CANCELLATION_FEE_PERCENT: integer(0, 100).default(10),
    REFUND_INTERVAL_SECONDS: integer(0, 86400).default(15),
    REFUND_RETRY_BASE_SECONDS: integer(1, 3600).default(15),
    REFUND_RETRY_DAYS: integer(1, 30).default(3),
  });

/** The payment settings but the providers, read in turn with the service's others. */
export function paymentsConfig(
  reading: EnvReading,
  { sandboxByDefault }: { sandboxByDefault: boolean },
): Omit<PaymentConfig, keyof ProviderChoice> {
  const env = readEnv(paymentsEnv({ sandboxByDefault }), reading);
  return {
    mode: env.PAYMENT_MODE,
    allowHttpReturnUrl: env.ALLOW_HTTP_RETURN_URL,
    reconcileAfterSeconds: env.PAYMENT_RECONCILE_AFTER_SECONDS,
    statusLookupSeconds: env.PAYMENT_STATUS_LOOKUP_SECONDS,
    attemptTtlMinutes: env.PAYMENT_ATTEMPT_TTL_MINUTES,
    reconcileIntervalSeconds: env.PAYMENT_RECONCILE_INTERVAL_SECONDS,
    callbackMaxAgeSeconds: env.PAYMENT_CALLBACK_MAX_AGE_SECONDS,
    merchantName: env.PAYMENT_MERCHANT_NAME,
    gatewaySecrets: { card_gateway: env.CARD_GATEWAY_SECRET, wallet_gateway: env.WALLET_GATEWAY_SECRET },
    providerTimeoutMs: env.PAYMENT_PROVIDER_TIMEOUT_MS,
    providerLookupAttempts: env.PAYMENT_PROVIDER_LOOKUP_ATTEMPTS,
    watch: {
      decisionWatchDays: env.PROVIDER_DECISION_WATCH_DAYS,
      reversalWatchDays: env.PAYMENT_REVERSAL_WATCH_DAYS,
      decisionFirstSeconds: env.PAYMENT_WATCH_FIRST_SECONDS,
      decisionMaxSeconds: env.PAYMENT_WATCH_MAX_SECONDS,
      reversalFirstSeconds: env.PAYMENT_REVERSAL_WATCH_FIRST_SECONDS,
      reversalMaxSeconds: env.PAYMENT_REVERSAL_WATCH_MAX_SECONDS,
    },
    freeLookDays: env.FREE_LOOK_DAYS,
    cancellationFeePercent: env.CANCELLATION_FEE_PERCENT,
    refundIntervalSeconds: env.REFUND_INTERVAL_SECONDS,
    refundRetryBaseSeconds: env.REFUND_RETRY_BASE_SECONDS,
    refundRetryDays: env.REFUND_RETRY_DAYS,
  };
}

/** Payment modes production must not run with. */
export function paymentModeProblems(
  payments: Pick<PaymentConfig, 'mode' | 'allowHttpReturnUrl' | 'refundIntervalSeconds'>,
  isProduction: boolean,
): string[] {
  const problems: string[] = [];
  // Sandbox gateways approve test cards: in production they would mark unpaid orders PAID.
  if (isProduction && payments.mode === 'sandbox')
    problems.push('PAYMENT_MODE=sandbox is not allowed when NODE_ENV=production');
  if (isProduction && payments.allowHttpReturnUrl)
    problems.push('ALLOW_HTTP_RETURN_URL=true is not allowed when NODE_ENV=production');
  // With no pass, a refund is made only by the kick of the process that wrote it: one whose provider
  // was down, or whose process stopped, would never be retried (decision 0091).
  if (isProduction && payments.refundIntervalSeconds === 0)
    problems.push(
      'REFUND_INTERVAL_SECONDS=0 is not allowed when NODE_ENV=production: nothing would retry a refund its first try could not make',
    );
  return problems;
}

/** Gateway secrets too weak to sign callbacks with, one line each. */
export function gatewaySecretProblems(
  payments: Pick<PaymentConfig, 'gatewaySecrets'>,
  isProduction: boolean,
): string[] {
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
 * A provider's URL: `fallback` when unset; in production only HTTPS, outside the providers' test
 * environments (which take no real money).
 */
function providerUrl(fallback: string, { production }: { production: boolean }): TextVariable {
  const testHost = (url: URL) =>
    production && TEST_HOSTS.includes(normalisedHost(url.hostname))
      ? "points at a provider's test environment, which takes no real money, while NODE_ENV=production"
      : undefined;
  return url(production ? ['https:'] : ['https:', 'http:'], { also: testHost }).default(fallback);
}

/** The provider behind a gateway: `sandbox` by default in sandbox mode, none in live mode, where production needs one. */
function gatewayProvider(gateway: GatewayKey, { mode, production }: { mode: PaymentMode; production: boolean }) {
  const variable = `${gateway.toUpperCase()}_PROVIDER`;
  return oneOf(PROVIDER_NAMES)
    .optional()
    .transform((provider) => provider ?? (mode === 'sandbox' ? 'sandbox' : undefined))
    .superRefine((provider, ctx) => {
      if (provider === 'sandbox' && mode !== 'sandbox') ctx.addIssue(`${variable}=sandbox needs PAYMENT_MODE=sandbox`);
      if (production && provider === undefined)
        ctx.addIssue(`${variable} is not set: in production ${gateway} needs a live provider (khalti or esewa)`);
    });
}

const providersEnv = (context: { mode: PaymentMode; production: boolean }) =>
  z.object({
    CARD_GATEWAY_PROVIDER: gatewayProvider('card_gateway', context),
    WALLET_GATEWAY_PROVIDER: gatewayProvider('wallet_gateway', context),
    // A provider no gateway takes new payments through keeps its settings while they are set: the
    // payments it took before a switch are still looked up and refunded there (attempt.provider).
    KHALTI_SECRET_KEY: anyText().optional(),
    ESEWA_SECRET_KEY: anyText().optional(),
  });

/**
 * Which provider serves each gateway, and the settings of those in use. Production fails closed:
 * every gateway needs a live provider, on HTTPS, outside the providers' test environments, with
 * credentials that are not the published test ones.
 */
export function providersConfig(
  reading: EnvReading,
  { mode, isProduction: production, currency }: { mode: PaymentMode; isProduction: boolean; currency: string },
): ProviderChoice {
  const env = readEnv(providersEnv({ mode, production }), reading);
  const providers = { card_gateway: env.CARD_GATEWAY_PROVIDER, wallet_gateway: env.WALLET_GATEWAY_PROVIDER };
  const used = new Set(Object.values(providers));
  if ((used.has('khalti') || used.has('esewa')) && currency !== 'NPR')
    reading.problems.push('Khalti and eSewa take NPR only: CURRENCY must be NPR');
  const khalti =
    used.has('khalti') || env.KHALTI_SECRET_KEY !== undefined
      ? khaltiConfig(reading, { production, providerUrl: (fallback) => providerUrl(fallback, { production }) })
      : undefined;
  const esewa =
    used.has('esewa') || env.ESEWA_SECRET_KEY !== undefined
      ? esewaConfig(reading, { production, providerUrl: (fallback) => providerUrl(fallback, { production }) })
      : undefined;
  return { providers, ...(khalti && { khalti }), ...(esewa && { esewa }) };
}
