import type { Minor } from '../../../kernel/money';
import { premiumOfShare, premiumSplit, type PricedParts } from '../../../kernel/premium';

/** What of an order's price earns commission, as the order keeps it (minor units). */
export type PremiumParts = PricedParts;

/**
 * The premium of an order: the insurance only, the package after the promo and direct discounts,
 * the one definition the certificate prints as "Premium paid" (kernel/premium.ts, decision record
 * 0103). The included devices' rental is equipment and the added services and devices are priced
 * by the partner for a third party: neither is insurance, so neither earns commission.
 */
export function premiumOf(parts: PremiumParts): Minor {
  return premiumSplit(parts).premium;
}

/**
 * The base of a paid share: its premium part, in the premium's proportion of the order's total,
 * rounded down. A share of the whole total (every payment today) has the whole premium as base;
 * the proportion keeps a share that is not (an attempt repriced under it) from earning on
 * equipment or added items.
 */
export function commissionBase(parts: PremiumParts, share: Minor): Minor {
  return premiumOfShare(parts, share);
}
