import { percentOf, type Minor } from '../../../kernel/money';

/** What an order's price is made of, all money in integer minor units. */
export interface OrderPriceParts {
  /** Package price for the cover window (the quoted one when a quote backs the order). */
  packagePrice: Minor;
  /** Included devices kept on the order (the excluded ones already dropped), priced for the window. */
  includedDevices: ReadonlyArray<{ priceForDuration: Minor }>;
  /** Added services and devices: unit price × quantity each. */
  addedItems: ReadonlyArray<{ price: Minor; quantity: number }>;
  companyPromoDiscount: Minor;
  agentPromoDiscount: Minor;
  /** 0 to 100, at most two decimals. */
  directDiscountPercent: number;
}

/** The figures of spec/components/schemas/OrderPricing.yaml, in minor units. */
export interface OrderPriceBreakdown {
  packagePrice: Minor;
  includedDevicesPrice: Minor;
  addedItemsPrice: Minor;
  subtotal: Minor;
  companyPromoDiscount: Minor;
  agentPromoDiscount: Minor;
  directDiscountPercent: number;
  directDiscountAmount: Minor;
  totalDiscount: Minor;
  totalAmount: Minor;
}

/**
 * Prices an order. Discounts apply in this order, and only to the insurance itself (package plus
 * kept devices), never to added third-party items:
 *
 * 1. the promo discounts (company slot, then agent slot) come off the package-plus-devices total,
 *    each capped at what is left of it, so two codes can never push it below zero;
 * 2. the direct discount is `directDiscountPercent` of what remains after the promos, rounded
 *    half-up to a whole minor unit (it is drawn from the partner's commission, which is earned on
 *    that remainder);
 * 3. added services and devices are charged in full.
 *
 * `totalAmount = subtotal - totalDiscount` and is never below zero.
 */
export function priceOrder(parts: OrderPriceParts): OrderPriceBreakdown {
  const includedDevicesPrice = parts.includedDevices.reduce((sum, device) => sum + device.priceForDuration, 0);
  const addedItemsPrice = parts.addedItems.reduce((sum, item) => sum + item.price * item.quantity, 0);
  const insurance = parts.packagePrice + includedDevicesPrice;

  const companyPromoDiscount = clamp(parts.companyPromoDiscount, insurance);
  const agentPromoDiscount = clamp(parts.agentPromoDiscount, insurance - companyPromoDiscount);
  const afterPromos = insurance - companyPromoDiscount - agentPromoDiscount;
  const directDiscountAmount = clamp(percentOf(afterPromos, parts.directDiscountPercent), afterPromos);

  const subtotal = insurance + addedItemsPrice;
  const totalDiscount = companyPromoDiscount + agentPromoDiscount + directDiscountAmount;
  return {
    packagePrice: parts.packagePrice,
    includedDevicesPrice,
    addedItemsPrice,
    subtotal,
    companyPromoDiscount,
    agentPromoDiscount,
    directDiscountPercent: parts.directDiscountPercent,
    directDiscountAmount,
    totalDiscount,
    totalAmount: Math.max(0, subtotal - totalDiscount),
  };
}

/** The amount a promo percentage applies to: the insurance without added items. */
export function promoBase(parts: Pick<OrderPriceParts, 'packagePrice' | 'includedDevices'>): Minor {
  return parts.packagePrice + parts.includedDevices.reduce((sum, device) => sum + device.priceForDuration, 0);
}

function clamp(amount: Minor, ceiling: Minor): Minor {
  return Math.min(Math.max(0, amount), Math.max(0, ceiling));
}
