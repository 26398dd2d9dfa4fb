import { amountFromMinor, type Minor } from '../../kernel/money';
import type { OrderPriceBreakdown } from './rules/order-pricing';
import type { AddedItemRecord, Order } from './entities/order';
import type { OrderGroup } from './entities/order-group';
import type { PromoApplyOutcome } from './order-creation';
import { bindingOfOrder, orderPrice } from './order-promo-columns';
import type { Schemas } from '../../kernel/http/wire';
import type { OrderCancellation } from './entities/order-cancellation';
import type { Refund } from '../refunds/entities/refund';
import { refundWire } from '../refunds';

/** What names an order and where it stands: the head of every view of one, partner's or operator's. */
export function orderIdentity(
  order: Order,
): Pick<Schemas['Order'], 'orderId' | 'orderRef' | 'orderNumber' | 'status' | 'settlementType'> {
  return {
    orderId: order.id,
    orderRef: order.orderRef,
    orderNumber: order.orderNumber,
    status: order.status,
    settlementType: order.settlementType,
  };
}

/** A cancelled order's cancellation and refund, as cancellationOf loads them. */
export interface CancellationDetail {
  cancellation: OrderCancellation;
  refund: Refund | null;
  /** The refunds of its extension top-ups (decision record 0099). */
  topUpRefunds: Refund[];
}

/** The order detail of the spec; relations of ORDER_DETAIL_POPULATE must be loaded, and a cancelled order's cancellation passed. */
export function orderWire(
  order: Order,
  promoApplyResult?: PromoApplyOutcome,
  cancellation: CancellationDetail | null = null,
  topUpAmount: Minor = 0,
): Schemas['Order'] {
  return {
    ...orderIdentity(order),
    traveller: travellerOfOrder(order),
    package: packageOfOrder(order),
    routeId: order.route?.id ?? null,
    routeName: order.route?.name ?? null,
    customRouteName: order.customRouteName ?? null,
    departureDate: order.departureDate,
    coverageStartDate: order.coverageStartDate,
    coverageEndDate: order.coverageEndDate,
    durationDays: order.durationDays,
    quoteId: order.quote?.id ?? null,
    pricing: pricingWire(order),
    travelCompanies: order.travelCompanies
      .getItems()
      .map((link) => ({ companyId: link.company.id, name: link.company.name })),
    customTravelAgencies: order.customTravelAgencies,
    ...promoWire(order),
    commissionCompanyId: order.commissionCompany?.id ?? null,
    groupRef: order.group?.groupRef ?? null,
    referralCode: order.referralCode ?? null,
    addedServices: addedItemsWire(order.addedServices),
    addedDevices: addedItemsWire(order.addedDevices),
    extraFields: order.extraFields ?? null,
    dispatchInfo: order.dispatchInfo ?? null,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    policyNumber: order.policyNumber ?? null,
    amendedAt: order.amendedAt?.toISOString() ?? null,
    topUpAmount: amountFromMinor(topUpAmount),
    cancellation: cancellation ? cancellationWire(cancellation) : null,
    ...(promoApplyResult ? { promoApplyResult } : {}),
  };
}

function cancellationWire({ cancellation, refund, topUpRefunds }: CancellationDetail): Schemas['OrderCancellation'] {
  return {
    cancelledAt: cancellation.cancelledAt.toISOString(),
    reason: cancellation.reason,
    note: cancellation.note ?? null,
    refund: refund ? refundWire(refund) : null,
    topUpRefunds: topUpRefunds.map(refundWire),
  };
}

function travellerOfOrder({ traveller }: Order): Schemas['Order']['traveller'] {
  return {
    touristId: traveller.id,
    name: traveller.name,
    email: traveller.email,
    nationality: traveller.nationality,
    dateOfBirth: traveller.dateOfBirth,
  };
}

function packageOfOrder({ ctg }: Order): Schemas['Order']['package'] {
  return { ctgId: ctg.id, ctgCode: ctg.code, ctgName: ctg.name, insuranceCompany: ctg.insuranceCompany };
}

/** The price as the order's parts make it, and the stored payable amount. */
function pricingWire(order: Order): Schemas['Order']['pricing'] {
  const price = orderPrice(order);
  return {
    currency: order.currency,
    packagePrice: amountFromMinor(price.packagePrice),
    includedDevices: order.includedDevices.map((device) => ({
      ...device,
      priceForDuration: amountFromMinor(device.priceForDuration),
    })),
    includedDevicesPrice: amountFromMinor(price.includedDevicesPrice),
    excludedIncludedDeviceIds: order.excludedIncludedDeviceIds,
    addedItemsPrice: amountFromMinor(price.addedItemsPrice),
    subtotal: amountFromMinor(price.subtotal),
    companyPromoDiscount: amountFromMinor(price.companyPromoDiscount),
    agentPromoDiscount: amountFromMinor(price.agentPromoDiscount),
    directDiscountPercent: price.directDiscountPercent,
    directDiscountAmount: amountFromMinor(price.directDiscountAmount),
    totalDiscount: amountFromMinor(price.totalDiscount),
    // The stored payable amount, which the payment will charge.
    totalAmount: amountFromMinor(order.totalAmount),
  };
}

/** The two promo slots and the binding; ORDER_DETAIL_POPULATE loads what they show. */
function promoWire(order: Order): Pick<Schemas['Order'], 'promoCodes' | 'binding'> {
  return {
    promoCodes: {
      companyPromoCode: order.companyPromoCode?.code ?? null,
      agentPromoCode: order.agentPromoCode?.code ?? null,
    },
    binding: bindingOfOrder(order),
  };
}

function addedItemsWire(items: AddedItemRecord[] | undefined): Schemas['AddedItem'][] {
  return (items ?? []).map((item) => ({
    name: item.name,
    price: amountFromMinor(item.price),
    quantity: item.quantity,
  }));
}

/** A group with the given orders (all of them) and totals summed from those orders. */
export function orderGroupWire(
  group: OrderGroup,
  orders: Array<{ order: Order; promoApplyResult?: PromoApplyOutcome }>,
): Schemas['OrderGroup'] {
  return {
    groupRef: group.groupRef,
    groupId: group.id,
    orders: orders.map(({ order, promoApplyResult }) => orderWire(order, promoApplyResult)),
    totals: groupTotalsWire(
      group,
      orders.map(({ order }) => order),
    ),
  };
}

/** A group's totals, summed from the orders given (all of them). */
export function groupTotalsWire(group: OrderGroup, orders: Order[]): Schemas['OrderGroupTotals'] {
  const prices = orders.map((order) => ({ ...orderPrice(order), totalAmount: order.totalAmount }));
  const sum = (pick: (price: OrderPriceBreakdown) => number) =>
    amountFromMinor(prices.reduce((total, price) => total + pick(price), 0));
  return {
    currency: group.currency,
    orderCount: orders.length,
    subtotal: sum((price) => price.subtotal),
    totalDiscount: sum((price) => price.totalDiscount),
    totalAmount: sum((price) => price.totalAmount),
  };
}
