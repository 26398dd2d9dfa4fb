import { priceOrder, promoBase, type OrderPriceParts } from '../../src/modules/orders/rules/order-pricing';

const parts = (overrides: Partial<OrderPriceParts> = {}): OrderPriceParts => ({
  packagePrice: 1_642_000,
  includedDevices: [{ priceForDuration: 168_000 }, { priceForDuration: 35_000 }],
  addedItems: [],
  companyPromoDiscount: 0,
  agentPromoDiscount: 0,
  directDiscountPercent: 0,
  ...overrides,
});

describe('order pricing', () => {
  it('sums package, kept devices and added items into the subtotal', () => {
    const price = priceOrder(
      parts({
        addedItems: [
          { price: 150_000, quantity: 1 },
          { price: 25_050, quantity: 2 },
        ],
      }),
    );
    expect(price).toMatchObject({
      packagePrice: 1_642_000,
      includedDevicesPrice: 203_000,
      addedItemsPrice: 200_100,
      subtotal: 2_045_100,
    });
    expect(price.totalDiscount).toBe(0);
    expect(price.totalAmount).toBe(2_045_100);
  });

  it('charges only the devices kept on the order', () => {
    const price = priceOrder(parts({ includedDevices: [{ priceForDuration: 35_000 }] }));
    expect(price.includedDevicesPrice).toBe(35_000);
    expect(price.totalAmount).toBe(1_677_000);
  });

  it('takes the promo discounts off the package-plus-devices total, then the direct discount off the rest', () => {
    // insurance 1,000.00; promos 100.00 + 50.00 leave 850.00; 10 % of that is 85.00
    const price = priceOrder(
      parts({
        packagePrice: 100_000,
        includedDevices: [],
        companyPromoDiscount: 10_000,
        agentPromoDiscount: 5_000,
        directDiscountPercent: 10,
      }),
    );
    expect(price.directDiscountAmount).toBe(8_500);
    expect(price.totalDiscount).toBe(23_500);
    expect(price.totalAmount).toBe(76_500);
  });

  it('never discounts added items', () => {
    const price = priceOrder(
      parts({
        packagePrice: 10_000,
        includedDevices: [],
        addedItems: [{ price: 5_000, quantity: 1 }],
        companyPromoDiscount: 999_999,
        directDiscountPercent: 50,
      }),
    );
    expect(price.companyPromoDiscount).toBe(10_000);
    expect(price.directDiscountAmount).toBe(0);
    expect(price.totalAmount).toBe(5_000);
  });

  it('never goes below zero however large the promo discounts are', () => {
    const price = priceOrder(
      parts({ packagePrice: 10_000, includedDevices: [], companyPromoDiscount: 8_000, agentPromoDiscount: 8_000 }),
    );
    expect(price.companyPromoDiscount).toBe(8_000);
    expect(price.agentPromoDiscount).toBe(2_000);
    expect(price.totalAmount).toBe(0);
  });

  it('rounds the direct discount half-up to a whole minor unit', () => {
    // 12.5 % of 0.99 is 0.12375 -> 0.12; 0.5 % of 9.99 is 0.04995 -> 0.05
    expect(
      priceOrder(parts({ packagePrice: 99, includedDevices: [], directDiscountPercent: 12.5 })).directDiscountAmount,
    ).toBe(12);
    expect(
      priceOrder(parts({ packagePrice: 999, includedDevices: [], directDiscountPercent: 0.5 })).directDiscountAmount,
    ).toBe(5);
  });

  it('gives the whole insurance away at 100 % and keeps the total at zero', () => {
    const price = priceOrder(parts({ directDiscountPercent: 100 }));
    expect(price.directDiscountAmount).toBe(1_845_000);
    expect(price.totalAmount).toBe(0);
  });

  it('names the promo base: the package plus the kept devices', () => {
    expect(promoBase(parts())).toBe(1_845_000);
  });
});
