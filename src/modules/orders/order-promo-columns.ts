import { priceOrder, type OrderPriceBreakdown, type OrderPriceParts } from './rules/order-pricing';
import { Order, PromoBindingType } from './entities/order';
import type { Company } from '../partners/entities/company';
import type { PromoCode } from '../promos/entities/promo-code';
import type { SalesAgent } from '../partners/entities/sales-agent';
import type { Schemas } from '../../kernel/http/wire';

/**
 * The order's own promo columns: its two slots, its binding, the discounts they take off and the
 * total. Orders reads and writes them here; which code goes where, and the code's uses, are the
 * promos module's rules (decision record 0110), which call writePromoColumns with what they decided.
 */

/** Relations an order's promo state needs, on top of the order detail's. */
export const ORDER_PROMO_POPULATE = [
  'companyPromoCode.ownerCompany',
  'agentPromoCode.ownerAgent',
  'bindingCompany',
  'bindingAgent',
] as const;

/** Whom the order's codes bind it to, as the contract shows it (spec/components/schemas/PromoBinding.yaml). */
export function bindingOfOrder(order: Order): Schemas['PromoBinding'] {
  if (order.bindingType === PromoBindingType.Company && order.bindingCompany) {
    return { type: 'COMPANY', ownerId: order.bindingCompany.id, ownerName: order.bindingCompany.name };
  }
  if (order.bindingType === PromoBindingType.Agent && order.bindingAgent) {
    return { type: 'AGENT', ownerId: order.bindingAgent.id, ownerName: order.bindingAgent.name };
  }
  return { type: 'NONE', ownerId: null, ownerName: null };
}

/** What an order's price is, recomputed from its stored parts with the one pricing rule. */
export function orderPrice(order: Order): OrderPriceBreakdown {
  return priceOrder({
    ...pricePartsOf(order),
    companyPromoDiscount: order.companyPromoDiscount,
    agentPromoDiscount: order.agentPromoDiscount,
  });
}

/** The parts of the order's price that promo codes do not decide. */
export function pricePartsOf(order: Order): Omit<OrderPriceParts, 'companyPromoDiscount' | 'agentPromoDiscount'> {
  return {
    packagePrice: order.packagePrice,
    includedDevices: order.includedDevices,
    addedItems: [...(order.addedServices ?? []), ...(order.addedDevices ?? [])],
    directDiscountPercent: Number(order.directDiscountPercent),
  };
}

/** What promos decided an order carries: the codes in its slots, a new binding if it changed, and the price they make. */
export interface PromoColumns {
  companyPromoCode: PromoCode | undefined;
  agentPromoCode: PromoCode | undefined;
  /** Absent when the binding stays as it is; the owner is the code's that binds it (NONE: neither). */
  binding?: { type: PromoBindingType; company?: Company; agent?: SalesAgent };
  price: OrderPriceBreakdown;
}

/** Writes the promo columns and the recomputed total onto the order (flushed by the caller's transaction). */
export function writePromoColumns(order: Order, columns: PromoColumns): void {
  order.companyPromoCode = columns.companyPromoCode;
  order.agentPromoCode = columns.agentPromoCode;
  if (columns.binding) {
    order.bindingType = columns.binding.type;
    order.bindingCompany = columns.binding.company;
    order.bindingAgent = columns.binding.agent;
  }
  order.companyPromoDiscount = columns.price.companyPromoDiscount;
  order.agentPromoDiscount = columns.price.agentPromoDiscount;
  order.directDiscountAmount = columns.price.directDiscountAmount;
  order.totalAmount = columns.price.totalAmount;
}
