import type { Minor } from './money';

/**
 * What an order's price is made of, as the order keeps it (minor units): the fields of the order
 * entity these rules read, so the entity itself can be passed.
 */
export interface PricedParts {
  packagePrice: Minor;
  /** The included devices kept on the order, priced for the window. */
  includedDevices: ReadonlyArray<{ priceForDuration: Minor }>;
  companyPromoDiscount: Minor;
  agentPromoDiscount: Minor;
  directDiscountAmount: Minor;
  /** What the order charges in all, included and added items included. */
  totalAmount: Minor;
}

export interface PremiumSplit {
  /** The insurance premium: the package after every discount. */
  premium: Minor;
  /** Of the discounts, what came off the premium. */
  premiumDiscount: Minor;
  /** The included devices' rental, after what the discounts left over (equipment, not insurance). */
  includedEquipment: Minor;
}

/**
 * "Premium" means the insurance premium only (decision record 0103): the package price less the
 * discounts. The order's pricing takes promo and direct discounts off package and included devices
 * together; they come off the premium first, and only what exceeds the package (a 100 % code on a
 * package with devices) comes off the devices. So the equipment prints at the price the order
 * answers (`includedDevicesPrice`) in every ordinary case, and the premium is what the insurer
 * was paid for the cover: what the certificate prints, the commission base and the cancellation
 * fee's base are all this one figure.
 */
export function premiumSplit(parts: Omit<PricedParts, 'totalAmount'>): PremiumSplit {
  const devices = parts.includedDevices.reduce((sum, device) => sum + device.priceForDuration, 0);
  const discount = Math.max(0, parts.companyPromoDiscount + parts.agentPromoDiscount + parts.directDiscountAmount);
  const premiumDiscount = Math.min(parts.packagePrice, discount);
  return {
    premium: parts.packagePrice - premiumDiscount,
    premiumDiscount,
    includedEquipment: Math.max(0, devices - (discount - premiumDiscount)),
  };
}

/**
 * The premium part of a share of the order's total (what a payment took for it): the whole premium
 * for a share of the whole total, else the premium's proportion of the share, rounded down, so a
 * share never carries more premium than its part of the order.
 */
export function premiumOfShare(parts: PricedParts, share: Minor): Minor {
  const { premium } = premiumSplit(parts);
  if (parts.totalAmount <= 0 || share <= 0) return 0;
  if (share >= parts.totalAmount) return premium;
  return Number((BigInt(share) * BigInt(premium)) / BigInt(parts.totalAmount));
}
