/**
 * The largest value of everything that feeds an order total, in whole NPR. Partners' values are
 * bounded by the contract (spec: AddedItem, OrderInput, the group array), the operator's by the
 * catalogue format; test/kernel/amount-limits.test.ts holds both to these figures. They are chosen
 * so that the largest valid 50-order group, every amount at its maximum, still fits the money
 * columns (numeric(14,2)) and stays an exact integer of paisa in JavaScript: an over-large
 * amount is a 400 at the door, never an overflow (a 500) in a sum.
 */
export const AMOUNT_LIMITS = {
  /** AddedItem.price: a helicopter evacuation add-on costs about NPR 700,000. */
  addedItemUnitPrice: 1_000_000,
  addedItemQuantity: 100,
  /** Per list: addedServices and addedDevices each. */
  addedItemsPerList: 20,
  ordersPerGroup: 50,
  /** Days of cover: a quote's duration, a package's base duration. */
  coverDays: 365,
  catalogueBasePrice: 1_000_000,
  catalogueExtraDayPrice: 100_000,
  catalogueDeviceDailyPrice: 10_000,
  catalogueDeviceQuantity: 10,
  catalogueDevicesPerPackage: 10,
} as const;

/** numeric(14,2): twelve digits of whole units. */
export const LARGEST_STORABLE_AMOUNT = 999_999_999_999.99;

/** The largest total one order can reach, before discounts (which only lower it). */
export function largestOrderTotal(limits = AMOUNT_LIMITS): number {
  const packagePrice = limits.catalogueBasePrice + limits.coverDays * limits.catalogueExtraDayPrice;
  const devices =
    limits.catalogueDevicesPerPackage *
    limits.catalogueDeviceQuantity *
    limits.catalogueDeviceDailyPrice *
    limits.coverDays;
  const addedItems = 2 * limits.addedItemsPerList * limits.addedItemQuantity * limits.addedItemUnitPrice;
  return packagePrice + devices + addedItems;
}

export const largestGroupTotal = (limits = AMOUNT_LIMITS): number => limits.ordersPerGroup * largestOrderTotal(limits);
