import { z } from 'zod';
import { integer, readEnv, type Env, type EnvReading } from '../../kernel/settings/env-schema';

export interface CommissionConfig {
  /** The most the earners of one order take together, in percent of its base (COMMISSION_CAP_PERCENT, default 35). */
  capPercent: number;
  /** How often a server offers to close ended months (COMMISSION_CLOSE_INTERVAL_SECONDS, default 600; 0 never). */
  closeIntervalSeconds: number;
}

const commissionEnv = z.object({
  COMMISSION_CAP_PERCENT: integer(0, 100).default(35),
  COMMISSION_CLOSE_INTERVAL_SECONDS: integer(0, 86_400).default(600),
});

export function commissionConfig(reading: EnvReading): CommissionConfig {
  const env = readEnv(commissionEnv, reading);
  return { capPercent: env.COMMISSION_CAP_PERCENT, closeIntervalSeconds: env.COMMISSION_CLOSE_INTERVAL_SECONDS };
}

let cap: number | undefined;

/**
 * The cap in basis points, read once from the environment: settlement runs deep inside the
 * payment's and the refund's transactions, which carry no settings, and start-up has already
 * refused a bad value (config.ts reads it too).
 */
export function commissionCapBasisPoints(env: Env = process.env): number {
  cap ??= commissionConfig({ env, problems: [] }).capPercent * 100;
  return cap;
}
