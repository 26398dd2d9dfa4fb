import type { Minor } from '../../../kernel/money';
import type { Earner } from './commission-earners';

/** An earner's line of an order: what it earns on the base. */
export interface EarnedLine extends Earner {
  base: Minor;
  /** The cap the order was held to, in basis points. */
  capBp: number;
  /** Whether the earners together asked for more than the cap, so each share was scaled down. */
  capped: boolean;
  amount: Minor;
}

/**
 * What each earner earns on `base`: its percent of it, rounded down to the paisa. When the
 * earners' percents add up to more than the cap, each is scaled down pro rata so that together
 * they take at most the cap. Computed in integers (BigInt): a base of millions of rupees at a
 * percent in basis points, scaled by the cap, is past 2^53.
 */
export function earnedLines(earners: readonly Earner[], base: Minor, capBp: number): EarnedLine[] {
  const askedBp = earners.reduce((sum, earner) => sum + earner.percentBp, 0);
  const capped = askedBp > capBp;
  return earners.map((earner) => {
    const numerator = BigInt(base) * BigInt(earner.percentBp) * BigInt(capped ? capBp : 1);
    const denominator = 10_000n * BigInt(capped ? askedBp : 1);
    return { ...earner, base, capBp, capped, amount: Number(numerator / denominator) };
  });
}
