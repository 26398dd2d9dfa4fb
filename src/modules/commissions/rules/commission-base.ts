import type { Minor } from '../../../kernel/money';

/** What of an order's price earns commission, as the order keeps it (minor units). */
export interface PremiumParts {
  packagePrice: Minor;
  includedDevices: ReadonlyArray<{ priceForDuration: Minor }>;
  companyPromoDiscount: Minor;
  agentPromoDiscount: Minor;
  directDiscountAmount: Minor;
  /** What the order charges in all, added services and devices included. */
  totalAmount: Minor;
}

/**
 * The premium of an order: package and kept devices after the promo and direct discounts. Added
 * services and devices are priced by the partner for a third party, so they earn nothing.
 */
export function premiumOf(parts: PremiumParts): Minor {
  const insurance =
    parts.packagePrice + parts.includedDevices.reduce((sum, device) => sum + device.priceForDuration, 0);
  return Math.max(0, insurance - parts.companyPromoDiscount - parts.agentPromoDiscount - parts.directDiscountAmount);
}

/**
 * The base of a paid share: its premium part, in the premium's proportion of the order's total,
 * rounded down. A share of the whole total (every payment today) has the whole premium as base;
 * the proportion keeps a share that is not (an attempt repriced under it) from earning on added items.
 */
export function commissionBase(parts: PremiumParts, share: Minor): Minor {
  const premium = premiumOf(parts);
  if (parts.totalAmount <= 0 || share <= 0) return 0;
  if (share >= parts.totalAmount) return premium;
  return Number((BigInt(share) * BigInt(premium)) / BigInt(parts.totalAmount));
}
