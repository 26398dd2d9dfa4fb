import { isOneOf } from '../narrow';

/** Every problem of the settings at once, so that one failed start names them all. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

export type Env = Record<string, string | undefined>;

/**
 * Reads settings from the environment, each with its default and bounds. A bad value is noted in
 * `problems` (in reading order) and its default used, so that reading goes on and every problem
 * is found; the caller throws one ConfigError with them all.
 */
export class EnvReader {
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
}
