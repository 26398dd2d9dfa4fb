import type { Minor } from '../../../kernel/money';

/** What the order's price is made of, as the order keeps it (all money in minor units). */
export interface PricedOrder {
  packagePrice: Minor;
  includedDevices: ReadonlyArray<{ priceForDuration: Minor }>;
  addedServices?: ReadonlyArray<{ name: string; price: Minor; quantity: number }>;
  addedDevices?: ReadonlyArray<{ name: string; price: Minor; quantity: number }>;
  companyPromoDiscount: Minor;
  agentPromoDiscount: Minor;
  directDiscountAmount: Minor;
}

export interface CertificatePremium {
  /** The package and the devices included in it: the insurance, before any discount. */
  beforeDiscount: Minor;
  /** Every promo and direct discount together. */
  discount: Minor;
  /** What was paid for the insurance itself. */
  paid: Minor;
}

/** A partner-priced service or device sold with the order: not insurance, so never part of the premium. */
export interface CertificateAddedItem {
  name: string;
  quantity: number;
  /** Unit price × quantity. */
  amount: Minor;
}

/**
 * The premium a certificate prints, apart from the added items: an authority reading "premium
 * paid" must see the price of the cover, not of the porter and the satellite phone sold with it.
 * Discounts apply only to the insurance (orders' order-pricing rule), so the premium paid is the
 * insurance less every discount, and the order's total is that plus the added items.
 */
export function certificatePremium(order: PricedOrder): {
  premium: CertificatePremium;
  addedItems: CertificateAddedItem[];
} {
  const beforeDiscount =
    order.packagePrice + order.includedDevices.reduce((sum, device) => sum + device.priceForDuration, 0);
  const discount = Math.min(
    beforeDiscount,
    order.companyPromoDiscount + order.agentPromoDiscount + order.directDiscountAmount,
  );
  const addedItems = [...(order.addedServices ?? []), ...(order.addedDevices ?? [])].map((item) => ({
    name: item.name,
    quantity: item.quantity,
    amount: item.price * item.quantity,
  }));
  return { premium: { beforeDiscount, discount, paid: beforeDiscount - discount }, addedItems };
}
