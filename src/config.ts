import { availableParallelism } from 'node:os';
import path from 'node:path';

export type PaymentMode = 'sandbox' | 'live';

/** Every setting of the service, parsed and validated once at start. */
export interface Config {
  nodeEnv: string;
  isProduction: boolean;
  host: string;
  port: number;
  publicBaseUrl: string;
  databaseUrl?: string;
  dataDir: string;
  dbPoolMax: number;
  logLevel: string;
  currency: string;
  tokenTtlSeconds: number;
  quoteTtlDays: number;
  maxJsonBodyBytes: number;
  seedDemoData: boolean;
  /** How long SIGTERM waits for in-flight requests before it cuts the remaining connections. */
  shutdownTimeoutMs: number;
  /** Server processes `npm run start:cluster` runs. */
  clusterWorkers: number;
  rateLimits: RateLimitConfig;
}

/**
 * Limits per fixed window, counted in PostgreSQL so that they hold across server processes.
 * 0 turns a limit off. Defaults are far above what a partner integration needs.
 */
export interface RateLimitConfig {
  windowSeconds: number;
  /** POST /auth/token per clientId: a backend needs about one token an hour. */
  tokenPerClient: number;
  /** POST /auth/token per client address: every attempt costs a scrypt hash. */
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
    publicBaseUrl: (read.url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/$/, ''),
    databaseUrl: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(read.string('DATA_DIR', '.data')),
    dbPoolMax: read.integer('DB_POOL_MAX', 10, 1, 200),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    currency: read.string('CURRENCY', 'NPR'),
    tokenTtlSeconds: read.integer('TOKEN_TTL_SECONDS', 3600, 60, 86400),
    quoteTtlDays: read.integer('QUOTE_TTL_DAYS', 7, 1, 365),
    maxJsonBodyBytes: read.integer('MAX_JSON_BODY_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    seedDemoData: !isProduction && read.boolean('SEED_DEMO_DATA', true),
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
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}
