import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { gatewaySecretWeakness } from './kernel/settings/secret-strength';
import type { ResponseValidation } from './kernel/http/response-check';
import { isOneOf } from './kernel/narrow';

export type PaymentMode = 'sandbox' | 'live';
/** Who serves a partner-facing gateway: the built-in simulation, Khalti ePayment or eSewa ePay v2. */
export type ProviderName = 'sandbox' | 'khalti' | 'esewa';
export const PROVIDER_NAMES: readonly ProviderName[] = ['sandbox', 'khalti', 'esewa'];
type GatewayKey = 'card_gateway' | 'wallet_gateway';

/** Every setting of the service, parsed and validated once at start. */
export interface Config {
  nodeEnv: string;
  isProduction: boolean;
  /**
   * RESPONSE_VALIDATION: every answer checked against its operation in the spec; `log` a
   * violation, or also `fail` it with a 500 (the default under NODE_ENV=test, so tests catch
   * drift); `off` by default in production, where the check would cost every request.
   */
  responseValidation: ResponseValidation;
  host: string;
  port: number;
  /** Base of links the service hands out (checkout pages, callback); '' until the listening port is known. */
  publicBaseUrl: string;
  databaseUrl?: string;
  dataDir: string;
  dbPoolMax: number;
  logLevel: string;
  /** `pretty`: human-readable lines for a person at a terminal; `json`: one JSON object a line, for log shippers. */
  logFormat: 'json' | 'pretty';
  currency: string;
  tokenTtlSeconds: number;
  quoteTtlDays: number;
  maxJsonBodyBytes: number;
  /** Largest document file accepted by POST /documents, in bytes. */
  maxUploadBytes: number;
  /** Unattached documents older than this are purged with their bytes. */
  documentDraftTtlHours: number;
  /** How often the server runs the draft purge; 0 turns the periodic job off. */
  documentPurgeIntervalSeconds: number;
  /** Demo partners with published secrets; only when asked for (see sandboxByDefault). */
  seedDemoData: boolean;
  payments: PaymentConfig;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For names the client address (rate limits). */
  trustProxy: TrustProxy;
  http: HttpTimeouts;
  /** How long SIGTERM waits for in-flight requests before it cuts the remaining connections. */
  shutdownTimeoutMs: number;
  /** Server processes `npm run start:cluster` runs. */
  clusterWorkers: number;
  rateLimits: RateLimitConfig;
  /** Unattached documents a company may hold at once: bounds the storage one partner can fill. */
  maxDraftsPerCompany: number;
  documentStorage: DocumentStorageConfig;
  metrics: MetricsConfig;
  certificate: CertificateConfig;
  webhooks: WebhookConfig;
}

/** What the policy certificate prints besides the order; see docs/decisions.md ("Policy certificate"). */
export interface CertificateConfig {
  /** The 24-hour assistance line a traveller calls for rescue or medical help, international format. */
  assistancePhone: string;
  /** The assistance desk's e-mail address, printed beside the phone. */
  assistanceEmail: string;
}

/** Where document bytes live: the local disk under DATA_DIR (one machine) or an S3-compatible bucket. */
export type DocumentStorageConfig = { kind: 'disk' } | S3StorageConfig;

export interface S3StorageConfig {
  kind: 's3';
  bucket: string;
  /** Put before every object key ("documents/"), so one bucket can serve several environments. */
  prefix: string;
  /** For S3-compatible stores (MinIO, R2 ...); AWS S3 itself needs none. */
  endpoint?: string;
  region: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO and most emulators). */
  forcePathStyle: boolean;
  /** Absent: the AWS SDK's default chain (environment, shared files, instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Who may read GET /metrics, and where; see docs/decisions.md ("Metrics of a fleet"). */
export interface MetricsConfig {
  /** A listener for /metrics alone, away from the partner-facing one; the API then answers /metrics 404. */
  port?: number;
  /** Address of that listener: loopback unless METRICS_TOKEN protects it. */
  host: string;
  /** When set, every /metrics request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /** Whether the partner-facing listener answers GET /metrics (not with METRICS_PORT; in production only with a token). */
  onApiListener: boolean;
}

/** Partner webhooks; see docs/webhooks.md. */
export interface WebhookConfig {
  /** A delivery that has not answered by then counts as failed (and is retried). */
  timeoutMs: number;
  /** First retry after about this long; each next one waits about twice as long (pg-boss back-off). */
  retryDelaySeconds: number;
  /** The back-off stops doubling here. */
  retryDelayMaxSeconds: number;
  /** Retries after the first try; with the defaults they span about a day. */
  retryLimit: number;
  /** Deliveries one process sends at once. */
  concurrency: number;
  /** How long the replaced secret still signs deliveries after `ops webhook rotate-secret`. */
  secretOverlapHours: number;
  /** Sandbox only: endpoints may be plain HTTP and on loopback or private addresses (local receivers, tests). */
  allowLocalEndpoints: boolean;
}

/** Payment settings; see docs/decisions.md ("Payments"). */
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
}

/** Khalti ePayment (KPG-2); see README "Going live". */
export interface KhaltiConfig {
  secretKey: string;
  /** API root without a trailing slash, e.g. https://dev.khalti.com/api/v2. */
  baseUrl: string;
  /** `website_url` sent with each initiation; PUBLIC_BASE_URL when unset. */
  websiteUrl?: string;
}

/** eSewa ePay v2; see README "Going live". */
export interface EsewaConfig {
  productCode: string;
  secretKey: string;
  formUrl: string;
  statusUrl: string;
}

/** The providers' published test environments and credentials (docs/decisions.md, "Live payment providers"). */
export const PROVIDER_TEST_ENVIRONMENTS = {
  khaltiBaseUrl: 'https://dev.khalti.com/api/v2',
  esewaFormUrl: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form',
  esewaStatusUrl: 'https://rc.esewa.com.np/api/epay/transaction/status/',
  esewaProductCode: 'EPAYTEST',
  esewaSecretKey: '8gBm/:&EnhH.1/q',
} as const;

export const PROVIDER_LIVE_ENVIRONMENTS = {
  khaltiBaseUrl: 'https://khalti.com/api/v2',
  esewaFormUrl: 'https://epay.esewa.com.np/api/epay/main/v2/form',
  esewaStatusUrl: 'https://epay.esewa.com.np/api/epay/transaction/status/',
} as const;

/** Hosts of the providers' test environments: production must not take "payments" there. */
const TEST_HOSTS = ['dev.khalti.com', 'a.khalti.com', 'test-pay.khalti.com', 'rc-epay.esewa.com.np', 'rc.esewa.com.np', 'uat.esewa.com.np'];

/** false: the socket's peer is the client; a number: that many proxies in front; a list: the proxies' addresses. */
export type TrustProxy = false | number | string[];

/**
 * How long a client may take to send a request. Node's default (300 s for the whole request)
 * lets a slow sender hold a connection and its memory for five minutes.
 */
export interface HttpTimeouts {
  headersTimeoutMs: number;
  /** Headers plus the largest body (a MAX_UPLOAD_BYTES document) at the slowest rate we accept. */
  requestTimeoutMs: number;
  /** The slowest upload accepted, in bytes per second (documented in the README). */
  minUploadBytesPerSecond: number;
}

/**
 * Limits per fixed window, counted in PostgreSQL so that they hold across server processes.
 * 0 turns a limit off. Defaults are far above what a partner integration needs.
 */
export interface RateLimitConfig {
  windowSeconds: number;
  /**
   * Tokens issued per clientId: a backend needs about one an hour. Only a caller holding the
   * secret is counted, so no stranger can use it to lock a partner out.
   */
  tokenPerClient: number;
  /** Wrong secrets (or unknown clientIds) per client address: bounds guessing across clientIds. */
  tokenPerAddress: number;
  /** Wrong secrets per (clientId, client address): bounds guessing one credential's secret. */
  tokenPerClientAddress: number;
  /** Promo operations per company: bounds probing for valid codes. */
  promoPerCompany: number;
  /** Document uploads per company: a 50-traveller batch (150 documents) fits in one window. */
  uploadPerCompany: number;
  /** Document bytes stored per company per window (counted once stored; see rate-limits.ts). */
  uploadBytesPerCompany: number;
  quotePerCompany: number;
  /** Order creations (a group of up to 50 is one request). */
  orderPerCompany: number;
  /** Traveller registrations (a batch of up to 50 is one request). */
  travellerPerCompany: number;
  /** Payment starts, single and group. */
  payPerCompany: number;
  /** Certificates per company: a PDF costs CPU, so one partner's loop cannot starve the others. */
  certificatePerCompany: number;
  /** Public verification pages per client address: bounds guessing policy numbers. */
  verifyPerAddress: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  string(name: string, fallback: string): string {
    const value = this.env[name];
    return value === undefined || value === '' ? fallback : value;
  }

  optional(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  /** A setting with no default: its absence is a problem, stated with `why`. */
  required(name: string, why: string): string {
    const value = this.optional(name);
    if (value === undefined) this.problems.push(`${name} is not set: ${why}`);
    return value ?? '';
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
    if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (isOneOf(allowed, raw)) return raw;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }

  /** A secret: its value never appears in a message. */
  secret(name: string, minLength: number): string | undefined {
    const value = this.optional(name);
    if (value !== undefined && value.length < minLength) this.problems.push(`${name} must be at least ${minLength} characters long`);
    return value;
  }

  /** The value is left out of the message: a database URL carries a password. */
  url(name: string, protocols: readonly string[]): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      this.problems.push(`${name} must be a URL (got a value that does not parse)`);
      return undefined;
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(`${name} must be a ${protocols.map((p) => p.replace(/:$/, '://')).join(' or ')} URL (got ${parsed.protocol}//...)`);
      return undefined;
    }
    return raw;
  }

  /**
   * Express's `trust proxy`, restricted to what cannot be spoofed: `true` would believe any
   * X-Forwarded-For a client writes itself and let it pick the address its rate limits count.
   */
  trustProxy(name: string): TrustProxy {
    const raw = this.optional(name);
    if (raw === undefined || ['false', '0', 'no'].includes(raw.toLowerCase())) return false;
    if (/^\d+$/.test(raw)) {
      const hops = Number(raw);
      if (hops <= 10) return hops;
    }
    const entries = raw.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length === 0) return entries;
    this.problems.push(
      `${name} must be false, a number of proxies from 1 to 10, or a comma-separated list of proxy addresses ` +
        `(IP, IP/prefix, loopback, linklocal, uniquelocal) (got "${raw}")`,
    );
    return false;
  }
}

const PROXY_PRESETS = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_PRESETS.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function documentStorageConfig(read: EnvReader): DocumentStorageConfig {
  if (read.oneOf('DOCUMENT_STORAGE', 'disk', ['disk', 's3'] as const) === 'disk') return { kind: 'disk' };
  const bucket = read.optional('S3_BUCKET');
  if (bucket === undefined) read.problems.push('S3_BUCKET must be set when DOCUMENT_STORAGE=s3');
  const accessKeyId = read.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = read.optional('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    read.problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)');
  }
  const prefix = read.string('S3_PREFIX', '');
  if (prefix.startsWith('/')) read.problems.push(`S3_PREFIX must not start with "/" (got "${prefix}")`);
  return {
    kind: 's3',
    bucket: bucket ?? '',
    prefix,
    endpoint: read.url('S3_ENDPOINT', ['http:', 'https:']),
    region: read.string('S3_REGION', 'us-east-1'),
    forcePathStyle: read.boolean('S3_FORCE_PATH_STYLE', false),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

/**
 * Metrics name every operation, its traffic and the payment outcomes: nothing a stranger should
 * read. Off the loopback interface a token is required, and in production the partner-facing
 * listener serves them only with one.
 */
function metricsConfig(read: EnvReader, isProduction: boolean): MetricsConfig {
  const rawPort = read.optional('METRICS_PORT');
  const port = rawPort === undefined ? undefined : read.integer('METRICS_PORT', 0, 0, 65535);
  const host = read.string('METRICS_HOST', '127.0.0.1');
  const token = read.secret('METRICS_TOKEN', 16);
  if (port !== undefined && !LOOPBACK_HOSTS.includes(host) && token === undefined) {
    read.problems.push(`METRICS_HOST=${host} is not loopback: set METRICS_TOKEN too, or keep METRICS_HOST=127.0.0.1`);
  }
  return { port, host, token, onApiListener: port === undefined && (!isProduction || token !== undefined) };
}

const NODE_ENVS = ['development', 'test', 'production'] as const;
const RESPONSE_VALIDATIONS = ['off', 'log', 'fail'] as const;
const RESPONSE_VALIDATION_DEFAULTS = { development: 'log', test: 'fail', production: 'off' } as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  // A misspelt NODE_ENV ("prod") would otherwise run production with the public demo credentials.
  const nodeEnv = read.oneOf('NODE_ENV', 'development', NODE_ENVS);
  const isProduction = nodeEnv === 'production';
  const port = read.integer('PORT', 3000, 0, 65535);
  const databaseUrl = read.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  // Sandbox payments and demo partners only when asked for: the embedded default of `npm start`
  // (no DATABASE_URL, not production) asks; a deployment on its own database must say so itself.
  const sandboxByDefault = !isProduction && read.optional('DATABASE_URL') === undefined;
  const maxUploadBytes = read.integer('MAX_UPLOAD_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024);
  const headersTimeoutSeconds = read.integer('HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 300);
  const minUploadBytesPerSecond = read.integer('HTTP_MIN_UPLOAD_BYTES_PER_SECOND', 128 * 1024, 1024, 100 * 1024 * 1024);
  const config: Config = {
    nodeEnv,
    isProduction,
    responseValidation: read.oneOf('RESPONSE_VALIDATION', RESPONSE_VALIDATION_DEFAULTS[nodeEnv], RESPONSE_VALIDATIONS),
    host: read.string('HOST', '0.0.0.0'),
    port,
    // With PORT=0 (tests, forked servers) the port is known only once listening: '' means "derive it then".
    publicBaseUrl: (read.url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? (port === 0 ? '' : `http://localhost:${port}`)).replace(/\/$/, ''),
    databaseUrl,
    dataDir: path.resolve(read.string('DATA_DIR', '.data')),
    dbPoolMax: read.integer('DB_POOL_MAX', 10, 1, 200),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    // A terminal gets readable lines, anything else (a pipe, a file, a process manager) JSON.
    logFormat: read.oneOf('LOG_FORMAT', process.stdout.isTTY ? 'pretty' : 'json', LOG_FORMATS),
    currency: read.string('CURRENCY', 'NPR'),
    tokenTtlSeconds: read.integer('TOKEN_TTL_SECONDS', 3600, 60, 86400),
    quoteTtlDays: read.integer('QUOTE_TTL_DAYS', 7, 1, 365),
    maxJsonBodyBytes: read.integer('MAX_JSON_BODY_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    maxUploadBytes,
    documentDraftTtlHours: read.integer('DOCUMENT_DRAFT_TTL_HOURS', 24, 1, 24 * 365),
    documentPurgeIntervalSeconds: read.integer('DOCUMENT_PURGE_INTERVAL_SECONDS', 3600, 0, 86400),
    seedDemoData: read.boolean('SEED_DEMO_DATA', sandboxByDefault),
    trustProxy: read.trustProxy('TRUST_PROXY'),
    http: {
      headersTimeoutMs: headersTimeoutSeconds * 1000,
      requestTimeoutMs: (headersTimeoutSeconds + Math.ceil(maxUploadBytes / minUploadBytesPerSecond)) * 1000,
      minUploadBytesPerSecond,
    },
    payments: paymentsConfig(read, sandboxByDefault),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 300_000),
    clusterWorkers: read.integer('CLUSTER_WORKERS', Math.max(2, availableParallelism()), 1, 64),
    rateLimits: rateLimitsConfig(read),
    certificate: certificateConfig(read, isProduction),
    maxDraftsPerCompany: read.integer('DOCUMENT_MAX_DRAFTS_PER_COMPANY', 500, 0, 1_000_000),
    documentStorage: documentStorageConfig(read),
    metrics: metricsConfig(read, isProduction),
    webhooks: webhooksConfig(read),
  };
  // Local receivers exist for development and tests: only where payments are simulated too.
  config.webhooks.allowLocalEndpoints = config.payments.mode === 'sandbox';
  checkConsistency(read, config);
  readProviders(read, config);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

function paymentsConfig(read: EnvReader, sandboxByDefault: boolean): Config['payments'] {
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
    providers: { card_gateway: undefined, wallet_gateway: undefined },
    providerTimeoutMs: read.integer('PAYMENT_PROVIDER_TIMEOUT_MS', 8000, 100, 60_000),
    providerLookupAttempts: read.integer('PAYMENT_PROVIDER_LOOKUP_ATTEMPTS', 2, 1, 5),
  };
}

function rateLimitsConfig(read: EnvReader): Config['rateLimits'] {
  // A count a key may reach in one window; 0 turns that limit off.
  const perWindow = (name: string, fallback: number) => read.integer(name, fallback, 0, 1_000_000);
  return {
    windowSeconds: read.integer('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
    tokenPerClient: perWindow('RATE_LIMIT_TOKEN_PER_CLIENT', 60),
    tokenPerAddress: perWindow('RATE_LIMIT_TOKEN_PER_ADDRESS', 300),
    tokenPerClientAddress: perWindow('RATE_LIMIT_TOKEN_PER_CLIENT_ADDRESS', 20),
    promoPerCompany: perWindow('RATE_LIMIT_PROMO_PER_COMPANY', 600),
    uploadPerCompany: perWindow('RATE_LIMIT_UPLOAD_PER_COMPANY', 300),
    uploadBytesPerCompany: read.integer('RATE_LIMIT_UPLOAD_BYTES_PER_COMPANY', 2 * 1024 ** 3, 0, 1024 ** 4),
    quotePerCompany: perWindow('RATE_LIMIT_QUOTE_PER_COMPANY', 600),
    orderPerCompany: perWindow('RATE_LIMIT_ORDER_PER_COMPANY', 300),
    travellerPerCompany: perWindow('RATE_LIMIT_TRAVELLER_PER_COMPANY', 300),
    payPerCompany: perWindow('RATE_LIMIT_PAY_PER_COMPANY', 300),
    certificatePerCompany: perWindow('RATE_LIMIT_CERTIFICATE_PER_COMPANY', 600),
    verifyPerAddress: perWindow('RATE_LIMIT_VERIFY_PER_ADDRESS', 60),
  };
}

function webhooksConfig(read: EnvReader): Config['webhooks'] {
  return {
    timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retryDelaySeconds: read.integer('WEBHOOK_RETRY_DELAY_SECONDS', 60, 1, 3600),
    retryDelayMaxSeconds: read.integer('WEBHOOK_RETRY_DELAY_MAX_SECONDS', 4 * 3600, 1, 86400),
    retryLimit: read.integer('WEBHOOK_RETRY_LIMIT', 13, 0, 50),
    concurrency: read.integer('WEBHOOK_CONCURRENCY', 50, 1, 200),
    secretOverlapHours: read.integer('WEBHOOK_SECRET_OVERLAP_HOURS', 24, 0, 24 * 30),
    allowLocalEndpoints: false,
  };
}

function certificateConfig(read: EnvReader, isProduction: boolean): Config['certificate'] {
  return {
    // Production has no default: a forgotten setting must not print a made-up emergency number on real certificates.
    assistancePhone: isProduction ? read.required('ASSISTANCE_PHONE', 'in production the certificate\'s 24-hour assistance number must be the real one') : read.string('ASSISTANCE_PHONE', '+977 1 4000 000'),
    assistanceEmail: isProduction ? read.required('ASSISTANCE_EMAIL', 'in production the certificate\'s assistance e-mail must be the real one') : read.string('ASSISTANCE_EMAIL', 'assistance@himalayantrekcover.example'),
  };
}

/** Rules between settings, and settings production must not run with. */
function checkConsistency(read: EnvReader, config: Config): void {
  if (config.host.trim() === '') read.problems.push('HOST must not be blank');
  if (!/^[A-Z]{3}$/.test(config.currency)) read.problems.push(`CURRENCY must be an ISO 4217 code such as NPR (got "${config.currency}")`);
  // Printed on every certificate for a traveller in trouble to call: it must be dialable as written.
  if (config.certificate.assistancePhone && !/^\+[1-9]\d{0,3}(?:[ -]?\d{1,6}){2,6}$/.test(config.certificate.assistancePhone)) {
    read.problems.push(`ASSISTANCE_PHONE must be an international number such as +977 1 4000 000 (got "${config.certificate.assistancePhone}")`);
  }
  if (config.certificate.assistanceEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(config.certificate.assistanceEmail)) {
    read.problems.push(`ASSISTANCE_EMAIL must be an e-mail address (got "${config.certificate.assistanceEmail}")`);
  }
  const payments = config.payments;
  // Sandbox gateways approve test cards: in production they would mark unpaid orders PAID.
  if (config.isProduction && payments.mode === 'sandbox') read.problems.push('PAYMENT_MODE=sandbox is not allowed when NODE_ENV=production');
  if (config.isProduction && payments.allowHttpReturnUrl) read.problems.push('ALLOW_HTTP_RETURN_URL=true is not allowed when NODE_ENV=production');
  // Demo partners have published secrets: anyone could take their tokens.
  if (config.isProduction && config.seedDemoData) read.problems.push('SEED_DEMO_DATA=true is not allowed when NODE_ENV=production');
  for (const [gateway, secret] of Object.entries(payments.gatewaySecrets)) {
    // A guessable callback secret lets anyone forge a signed "paid" callback.
    const weakness = secret === undefined ? undefined : gatewaySecretWeakness(secret, { production: config.isProduction });
    if (weakness) read.problems.push(`${gateway.toUpperCase()}_SECRET ${weakness}`);
  }
}

/**
 * Which provider serves each gateway, and the settings of those in use. Production fails closed:
 * every gateway needs a live provider, on HTTPS, outside the providers' test environments, with
 * credentials that are not the published test ones.
 */
function readProviders(read: EnvReader, config: Config): void {
  const payments = config.payments;
  const production = config.isProduction;
  const fallback = payments.mode === 'sandbox' ? 'sandbox' : undefined;
  for (const gateway of ['card_gateway', 'wallet_gateway'] as const) {
    const variable = `${gateway.toUpperCase()}_PROVIDER`;
    const provider = read.optional(variable) === undefined ? fallback : read.oneOf<ProviderName>(variable, 'sandbox', PROVIDER_NAMES);
    payments.providers[gateway] = provider;
    if (provider === 'sandbox' && payments.mode !== 'sandbox') read.problems.push(`${variable}=sandbox needs PAYMENT_MODE=sandbox`);
    if (production && provider === undefined) read.problems.push(`${variable} is not set: in production ${gateway} needs a live provider (khalti or esewa)`);
  }
  const used = new Set(Object.values(payments.providers));
  if ((used.has('khalti') || used.has('esewa')) && config.currency !== 'NPR') read.problems.push('Khalti and eSewa take NPR only: CURRENCY must be NPR');
  const environment = production ? PROVIDER_LIVE_ENVIRONMENTS : PROVIDER_TEST_ENVIRONMENTS;
  const providerUrl = (name: string, fallbackUrl: string): string => {
    const value = read.url(name, production ? ['https:'] : ['https:', 'http:']) ?? fallbackUrl;
    if (production && TEST_HOSTS.includes(new URL(value).hostname)) read.problems.push(`${name} points at a provider's test environment, which takes no real money, while NODE_ENV=production`);
    return value;
  };
  if (used.has('khalti')) {
    const secretKey = read.optional('KHALTI_SECRET_KEY');
    if (!secretKey) read.problems.push('KHALTI_SECRET_KEY is required when a gateway is served by khalti (the merchant secret key from admin.khalti.com, or test-admin.khalti.com for its sandbox)');
    payments.khalti = {
      secretKey: secretKey ?? '',
      baseUrl: providerUrl('KHALTI_BASE_URL', environment.khaltiBaseUrl).replace(/\/+$/, ''),
      websiteUrl: read.url('KHALTI_WEBSITE_URL', ['https:', 'http:']),
    };
  }
  if (used.has('esewa')) {
    // Outside production eSewa's published test merchant works out of the box; production must bring its own.
    const productCode = read.optional('ESEWA_PRODUCT_CODE') ?? (production ? undefined : PROVIDER_TEST_ENVIRONMENTS.esewaProductCode);
    const secretKey = read.optional('ESEWA_SECRET_KEY') ?? (production ? undefined : PROVIDER_TEST_ENVIRONMENTS.esewaSecretKey);
    if (!productCode || !secretKey) read.problems.push('ESEWA_PRODUCT_CODE and ESEWA_SECRET_KEY are required in production when a gateway is served by esewa');
    if (production && (productCode === PROVIDER_TEST_ENVIRONMENTS.esewaProductCode || secretKey === PROVIDER_TEST_ENVIRONMENTS.esewaSecretKey)) {
      read.problems.push("ESEWA_PRODUCT_CODE or ESEWA_SECRET_KEY is eSewa's published test credential, not allowed when NODE_ENV=production");
    }
    payments.esewa = {
      productCode: productCode ?? '',
      secretKey: secretKey ?? '',
      formUrl: providerUrl('ESEWA_FORM_URL', environment.esewaFormUrl),
      statusUrl: providerUrl('ESEWA_STATUS_URL', environment.esewaStatusUrl),
    };
  }
}
