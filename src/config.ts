import { availableParallelism } from 'node:os';
import path from 'node:path';

export type PaymentMode = 'sandbox' | 'live';

/** Every setting of the service, parsed and validated once at start. */
export interface Config {
  nodeEnv: string;
  isProduction: boolean;
  host: string;
  port: number;
  /** Base of links the service hands out (checkout pages, callback); '' until the listening port is known. */
  publicBaseUrl: string;
  databaseUrl?: string;
  dataDir: string;
  dbPoolMax: number;
  logLevel: string;
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
  seedDemoData: boolean;
  payments: PaymentConfig;
  /** How long SIGTERM waits for in-flight requests before it cuts the remaining connections. */
  shutdownTimeoutMs: number;
  /** Server processes `npm run start:cluster` runs. */
  clusterWorkers: number;
  rateLimits: RateLimitConfig;
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
  gatewaySecrets: Partial<Record<'card_gateway' | 'wallet_gateway', string>>;
}

/**
 * Limits per fixed window, counted in PostgreSQL so that they hold across server processes.
 * 0 turns a limit off. Defaults are far above what a partner integration needs.
 */
export interface RateLimitConfig {
  windowSeconds: number;
  /** POST /auth/token per clientId: a backend needs about one token an hour. */
  tokenPerClient: number;
  /** POST /auth/token per client address: bounds guessing secrets across clientIds. */
  tokenPerAddress: number;
  /** Promo operations per company: bounds probing for valid codes. */
  promoPerCompany: number;
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
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
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
}

const NODE_ENVS = ['development', 'test', 'production'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  // A misspelt NODE_ENV ("prod") would otherwise run production with the public demo credentials.
  const nodeEnv = read.oneOf('NODE_ENV', 'development', NODE_ENVS);
  const isProduction = nodeEnv === 'production';
  const port = read.integer('PORT', 3000, 0, 65535);
  const config: Config = {
    nodeEnv,
    isProduction,
    host: read.string('HOST', '0.0.0.0'),
    port,
    // With PORT=0 (tests, forked servers) the port is known only once listening: '' means "derive it then".
    publicBaseUrl: (read.url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? (port === 0 ? '' : `http://localhost:${port}`)).replace(/\/$/, ''),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(read.string('DATA_DIR', '.data')),
    dbPoolMax: read.integer('DB_POOL_MAX', 10, 1, 200),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    currency: read.string('CURRENCY', 'NPR'),
    tokenTtlSeconds: read.integer('TOKEN_TTL_SECONDS', 3600, 60, 86400),
    quoteTtlDays: read.integer('QUOTE_TTL_DAYS', 7, 1, 365),
    maxJsonBodyBytes: read.integer('MAX_JSON_BODY_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    maxUploadBytes: read.integer('MAX_UPLOAD_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    documentDraftTtlHours: read.integer('DOCUMENT_DRAFT_TTL_HOURS', 24, 1, 24 * 365),
    documentPurgeIntervalSeconds: read.integer('DOCUMENT_PURGE_INTERVAL_SECONDS', 3600, 0, 86400),
    seedDemoData: !isProduction && read.boolean('SEED_DEMO_DATA', true),
    payments: {
      mode: read.string('PAYMENT_MODE', isProduction ? 'live' : 'sandbox') as PaymentMode,
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
    },
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 300_000),
    clusterWorkers: read.integer('CLUSTER_WORKERS', Math.max(2, availableParallelism()), 1, 64),
    rateLimits: {
      windowSeconds: read.integer('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 3600),
      tokenPerClient: read.integer('RATE_LIMIT_TOKEN_PER_CLIENT', 60, 0, 1_000_000),
      tokenPerAddress: read.integer('RATE_LIMIT_TOKEN_PER_ADDRESS', 1200, 0, 1_000_000),
      promoPerCompany: read.integer('RATE_LIMIT_PROMO_PER_COMPANY', 600, 0, 1_000_000),
    },
  };
  if (config.host.trim() === '') read.problems.push('HOST must not be blank');
  if (!/^[A-Z]{3}$/.test(config.currency)) read.problems.push(`CURRENCY must be an ISO 4217 code such as NPR (got "${config.currency}")`);
  const payments = config.payments;
  if (!['sandbox', 'live'].includes(payments.mode)) read.problems.push('PAYMENT_MODE must be sandbox or live');
  // Sandbox gateways approve test cards: in production they would mark unpaid orders PAID.
  if (isProduction && payments.mode === 'sandbox') read.problems.push('PAYMENT_MODE=sandbox is not allowed when NODE_ENV=production');
  if (isProduction && payments.allowHttpReturnUrl) read.problems.push('ALLOW_HTTP_RETURN_URL=true is not allowed when NODE_ENV=production');
  for (const [gateway, secret] of Object.entries(payments.gatewaySecrets)) {
    if (secret !== undefined && secret.length < 32) read.problems.push(`${gateway.toUpperCase()}_SECRET must be at least 32 characters`);
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}
