import { EnvReader, type Env } from '../../kernel/settings/env-reader';

export interface CommissionConfig {
  /** The most the earners of one order take together, in percent of its base (COMMISSION_CAP_PERCENT, default 35). */
  capPercent: number;
  /** How often a server offers to close ended months (COMMISSION_CLOSE_INTERVAL_SECONDS, default 600; 0 never). */
  closeIntervalSeconds: number;
}

export function commissionConfig(read: EnvReader): CommissionConfig {
  return {
    capPercent: read.integer('COMMISSION_CAP_PERCENT', 35, 0, 100),
    closeIntervalSeconds: read.integer('COMMISSION_CLOSE_INTERVAL_SECONDS', 600, 0, 86_400),
  };
}

let cap: number | undefined;

/**
 * The cap in basis points, read once from the environment: settlement runs deep inside the
 * payment's and the refund's transactions, which carry no settings, and start-up has already
 * refused a bad value (config.ts reads it too).
 */
export function commissionCapBasisPoints(env: Env = process.env): number {
  cap ??= commissionConfig(new EnvReader(env)).capPercent * 100;
  return cap;
}
