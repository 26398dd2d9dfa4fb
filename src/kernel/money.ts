/**
 * Money is held as an integer count of minor units (paisa for NPR) everywhere in code, so that
 * sums and discounts never meet binary floating point. Conversions happen only at the edges:
 * the database (numeric(12,2) strings) and the wire (JSON numbers with at most two decimals).
 */
export type Minor = number;

export function minorFromDecimalString(value: string): Minor {
  const match = /^(-?)(\d+)(?:\.(\d{1,2})\d*)?$/.exec(value.trim());
  if (!match) throw new Error(`Not a decimal amount: ${value}`);
  const [, sign, units, fraction = ''] = match;
  const minor = Number(units) * 100 + Number(fraction.padEnd(2, '0'));
  return sign === '-' ? -minor : minor;
}

export function decimalStringFromMinor(minor: Minor): string {
  assertWhole(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** For JSON output: a number whose decimal representation has at most two decimals. */
export function amountFromMinor(minor: Minor): number {
  return Number(decimalStringFromMinor(minor));
}

/** For JSON or YAML input that is already a number, e.g. 4500 or 350.5. */
export function minorFromAmount(amount: number): Minor {
  return minorFromDecimalString(amount.toFixed(2));
}

/** Percentage of an amount, rounded half-up to whole minor units. */
export function percentOf(minor: Minor, percent: number): Minor {
  const basisPoints = Math.round(percent * 100);
  return Math.floor((minor * basisPoints + 5000) / 10000);
}

function assertWhole(minor: Minor): void {
  if (!Number.isSafeInteger(minor)) throw new Error(`Minor units must be a whole number: ${minor}`);
}
