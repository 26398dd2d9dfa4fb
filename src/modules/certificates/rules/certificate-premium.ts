import type { Minor } from '../../../kernel/money';
import { premiumSplit } from '../../../kernel/premium';

/** What the order's price is made of, as the order keeps it (all money in minor units). */
export interface PricedOrder {
  packagePrice: Minor;
  includedDevices: ReadonlyArray<{ name: string; quantity: number; priceForDuration: Minor }>;
  addedServices?: ReadonlyArray<{ name: string; price: Minor; quantity: number }>;
  addedDevices?: ReadonlyArray<{ name: string; price: Minor; quantity: number }>;
  companyPromoDiscount: Minor;
  agentPromoDiscount: Minor;
  directDiscountAmount: Minor;
}

export interface CertificatePremium {
  /** The package: the insurance, before any discount. */
  beforeDiscount: Minor;
  /** The promo and direct discounts, as far as they come off the premium (kernel/premium.ts). */
  discount: Minor;
  /** What was paid for the insurance itself. */
  paid: Minor;
}

/** A priced line printed apart from the premium, as not insurance. */
export interface CertificateAddedItem {
  name: string;
  quantity: number;
  /** Unit price × quantity (for an included device: its price for the window). */
  amount: Minor;
}

/** The devices the package includes, rented for the window: equipment, not insurance (decision record 0103). */
export interface CertificateEquipment {
  items: CertificateAddedItem[];
  /** What of the discounts exceeded the package and came off the equipment (0 in every ordinary case). */
  discount: Minor;
  paid: Minor;
}

/**
 * The premium a certificate prints, apart from the included equipment and the added items: an
 * authority reading "premium paid" must see the price of the cover, not of the satellite
 * messenger rented with it or the porter sold with it. The premium is the kernel's one definition
 * (decision record 0103): the package less the discounts, which the commission base and the
 * cancellation fee read too; the order's total is premium, equipment and added items.
 */
export function certificatePremium(order: PricedOrder): {
  premium: CertificatePremium;
  equipment: CertificateEquipment;
  addedItems: CertificateAddedItem[];
} {
  const split = premiumSplit(order);
  const items = order.includedDevices.map((device) => ({
    name: device.name,
    quantity: device.quantity,
    amount: device.priceForDuration,
  }));
  const listed = items.reduce((sum, item) => sum + item.amount, 0);
  const addedItems = [...(order.addedServices ?? []), ...(order.addedDevices ?? [])].map((item) => ({
    name: item.name,
    quantity: item.quantity,
    amount: item.price * item.quantity,
  }));
  return {
    premium: { beforeDiscount: order.packagePrice, discount: split.premiumDiscount, paid: split.premium },
    equipment: { items, discount: listed - split.includedEquipment, paid: split.includedEquipment },
    addedItems,
  };
}
