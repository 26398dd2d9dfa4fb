import { z } from 'zod';
import { anyText, integer, readEnv, requiredText, type Env, type EnvReading } from '../../kernel/settings/env-schema';

export interface CommissionConfig {
  /** The most the earners of one order take together, in percent of its base (COMMISSION_CAP_PERCENT, default 35). */
  capPercent: number;
  /** How often a server offers to close ended months (COMMISSION_CLOSE_INTERVAL_SECONDS, default 600; 0 never). */
  closeIntervalSeconds: number;
  /** The insurer's PAN/VAT number, printed on every commission statement (INSURER_PAN). */
  insurerPan: string;
}

/** Outside production: a placeholder that says what it is, so no sandbox statement passes for a tax document. */
const INSURER_PAN_PLACEHOLDER = 'no PAN (sandbox placeholder)';

const commissionEnv = (isProduction: boolean) =>
  z.object({
    COMMISSION_CAP_PERCENT: integer(0, 100).default(35),
    COMMISSION_CLOSE_INTERVAL_SECONDS: integer(0, 86_400).default(600),
    // An agency's accountant books the statement against the insurer's tax registration: production prints the real one.
    INSURER_PAN: isProduction
      ? requiredText("in production the commission statement must print the insurer's PAN/VAT number")
      : anyText().default(INSURER_PAN_PLACEHOLDER),
  });

export function commissionConfig(reading: EnvReading, { isProduction = false } = {}): CommissionConfig {
  const env = readEnv(commissionEnv(isProduction), reading);
  return {
    capPercent: env.COMMISSION_CAP_PERCENT,
    closeIntervalSeconds: env.COMMISSION_CLOSE_INTERVAL_SECONDS,
    insurerPan: env.INSURER_PAN,
  };
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

let insurerPan: string | undefined;

/**
 * The insurer's PAN/VAT number, read once from the environment as the cap is: the statement is
 * printed for the partner's request and the operator's command alike, and start-up (config.ts)
 * has already refused a production without it.
 */
export function insurerPanNumber(env: Env = process.env): string {
  insurerPan ??= commissionConfig({ env, problems: [] }, { isProduction: env.NODE_ENV === 'production' }).insurerPan;
  return insurerPan;
}
