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
  /** Largest document file accepted by POST /documents, in bytes. */
  maxUploadBytes: number;
  /** Unattached documents older than this are purged with their bytes. */
  documentDraftTtlHours: number;
  /** How often the server runs the draft purge; 0 turns the periodic job off. */
  documentPurgeIntervalSeconds: number;
  seedDemoData: boolean;
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

  url(name: string): string | undefined {
    const raw = this.optional(name);
    if (raw === undefined) return undefined;
    try {
      new URL(raw);
      return raw;
    } catch {
      this.problems.push(`${name} must be a URL (got a value that does not parse)`);
      return undefined;
    }
  }
}

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const nodeEnv = read.string('NODE_ENV', 'development');
  const isProduction = nodeEnv === 'production';
  const port = read.integer('PORT', 3000, 0, 65535);
  const config: Config = {
    nodeEnv,
    isProduction,
    host: read.string('HOST', '0.0.0.0'),
    port,
    publicBaseUrl: (read.url('PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/$/, ''),
    databaseUrl: read.url('DATABASE_URL'),
    dataDir: path.resolve(read.string('DATA_DIR', '.data')),
    dbPoolMax: read.integer('DB_POOL_MAX', 10, 1, 200),
    logLevel: read.string('LOG_LEVEL', 'info'),
    currency: read.string('CURRENCY', 'NPR'),
    tokenTtlSeconds: read.integer('TOKEN_TTL_SECONDS', 3600, 60, 86400),
    quoteTtlDays: read.integer('QUOTE_TTL_DAYS', 7, 1, 365),
    maxJsonBodyBytes: read.integer('MAX_JSON_BODY_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    maxUploadBytes: read.integer('MAX_UPLOAD_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    documentDraftTtlHours: read.integer('DOCUMENT_DRAFT_TTL_HOURS', 24, 1, 24 * 365),
    documentPurgeIntervalSeconds: read.integer('DOCUMENT_PURGE_INTERVAL_SECONDS', 3600, 0, 86400),
    seedDemoData: !isProduction && read.boolean('SEED_DEMO_DATA', true),
  };
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(config.logLevel)) {
    read.problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  if (!/^[A-Z]{3}$/.test(config.currency)) read.problems.push('CURRENCY must be an ISO 4217 code such as NPR');
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}
