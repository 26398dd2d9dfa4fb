import {
  AMOUNT_LIMITS,
  LARGEST_STORABLE_AMOUNT,
  largestGroupTotal,
  largestOrderTotal,
} from '../../src/kernel/amount-limits';
import { catalogueFileSchema } from '../../src/modules/catalogue/catalogue-schema';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';

type Schema = {
  maximum?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  $ref?: string;
};

const document = loadSpecDocument() as unknown as {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, unknown>>;
};
const schemas = document.components.schemas;

describe('the documented maximums of every amount that feeds a total', () => {
  it('are what the contract enforces: added item price, quantity, items per list, orders per group', () => {
    const item = schemas.AddedItem?.properties;
    expect(item?.price?.maximum).toBe(AMOUNT_LIMITS.addedItemUnitPrice);
    expect(item?.quantity?.maximum).toBe(AMOUNT_LIMITS.addedItemQuantity);
    const order = schemas.OrderInput?.properties;
    expect(order?.addedServices?.maxItems).toBe(AMOUNT_LIMITS.addedItemsPerList);
    expect(order?.addedDevices?.maxItems).toBe(AMOUNT_LIMITS.addedItemsPerList);
    expect(order?.directDiscountPercent?.maximum).toBe(100);
    expect(schemas.QuoteRequest?.properties?.duration?.maximum).toBe(AMOUNT_LIMITS.coverDays);
    expect(JSON.stringify(document.paths['/api/external/v1/orders'])).toContain(
      `"maxItems":${AMOUNT_LIMITS.ordersPerGroup}`,
    );
  });

  it("are what the catalogue format enforces for the operator's prices", () => {
    const ctg = catalogueFileSchema.properties.ctgs.items.properties;
    expect(ctg.baseCtgPrice.maximum).toBe(AMOUNT_LIMITS.catalogueBasePrice);
    expect(ctg.extraDayPrice.maximum).toBe(AMOUNT_LIMITS.catalogueExtraDayPrice);
    expect(ctg.baseDurationDays.maximum).toBe(AMOUNT_LIMITS.coverDays);
    expect(ctg.includedDevices.maxItems).toBe(AMOUNT_LIMITS.catalogueDevicesPerPackage);
    expect(ctg.includedDevices.items.properties.quantity.maximum).toBe(AMOUNT_LIMITS.catalogueDeviceQuantity);
    expect(ctg.includedDevices.items.properties.dailyPrice.maximum).toBe(AMOUNT_LIMITS.catalogueDeviceDailyPrice);
  });

  it('let the largest valid 50-order group fit the money columns, exactly in paisa', () => {
    // package 1,000,000 + 365 x 100,000; devices 10 x 10 x 10,000 x 365; added items 2 x 20 x 100 x 1,000,000
    expect(largestOrderTotal()).toBe(37_500_000 + 365_000_000 + 4_000_000_000);
    expect(largestGroupTotal()).toBeLessThanOrEqual(LARGEST_STORABLE_AMOUNT);
    expect(Number.isSafeInteger(largestGroupTotal() * 100)).toBe(true);
  });
});
