import { pricePackage } from '../../src/modules/catalogue/rules/pricing';
import { recommendPackage, type EligiblePackage } from '../../src/modules/catalogue/rules/package-eligibility';

const trekPackage = {
  baseDurationDays: 14,
  baseCtgPrice: 1_540_000,
  extraDayPrice: 90_000,
  includedDevices: [
    { deviceId: 'sos', name: 'SOS tracker', description: '', quantity: 1, dailyPrice: 11_000 },
    { deviceId: 'oxi', name: 'Oximeter', description: '', quantity: 2, dailyPrice: 4_000 },
  ],
};

describe('pricePackage', () => {
  it('charges the base price within the base duration', () => {
    expect(pricePackage(trekPackage, 10).ctgPriceForDuration).toBe(1_540_000);
  });

  it('adds the extra-day price for each day beyond the base duration', () => {
    expect(pricePackage(trekPackage, 16).ctgPriceForDuration).toBe(1_540_000 + 2 * 90_000);
  });

  it('charges each device per day and per unit, and sums everything', () => {
    const price = pricePackage(trekPackage, 16);
    expect(price.includedDevices.map((d) => d.priceForDuration)).toEqual([176_000, 128_000]);
    expect(price.includedDevicesPrice).toBe(304_000);
    expect(price.totalAmount).toBe(1_720_000 + 304_000);
  });

  it('leaves excluded devices out of the total', () => {
    const price = pricePackage(trekPackage, 16, new Set(['oxi']));
    expect(price.includedDevices.map((d) => d.deviceId)).toEqual(['sos']);
    expect(price.totalAmount).toBe(1_720_000 + 176_000);
  });
});

describe('recommendPackage', () => {
  const pkg = (overrides: Partial<EligiblePackage>): EligiblePackage => ({
    id: 'p',
    active: true,
    routeId: null,
    minAltitude: 0,
    maxAltitude: 5500,
    minAge: 1,
    maxAge: 75,
    displayOrder: 10,
    ...overrides,
  });

  it('prefers a package tied to the requested route over a lower displayOrder', () => {
    const chosen = recommendPackage(
      [pkg({ id: 'general', displayOrder: 1 }), pkg({ id: 'special', routeId: 'ebc', displayOrder: 5 })],
      { altitude: 5364, age: 30, routeId: 'ebc' },
    );
    expect(chosen?.id).toBe('special');
  });

  it('never offers a special-route package on another route', () => {
    const chosen = recommendPackage([pkg({ id: 'special', routeId: 'ebc' })], {
      altitude: 5000,
      age: 30,
      routeId: 'manaslu',
    });
    expect(chosen).toBeUndefined();
  });

  it('takes the lowest displayOrder among equals, and skips inactive or out-of-band packages', () => {
    const chosen = recommendPackage(
      [
        pkg({ id: 'b', displayOrder: 20 }),
        pkg({ id: 'a', displayOrder: 10, active: false }),
        pkg({ id: 'c', displayOrder: 5, maxAge: 20 }),
        pkg({ id: 'd', displayOrder: 15 }),
      ],
      { altitude: 3000, age: 40, routeId: null },
    );
    expect(chosen?.id).toBe('d');
  });

  it('treats band edges as inclusive', () => {
    expect(
      recommendPackage([pkg({ minAltitude: 3001, maxAltitude: 4500 })], { altitude: 4500, age: 75, routeId: null }),
    ).toBeDefined();
    expect(
      recommendPackage([pkg({ minAltitude: 3001, maxAltitude: 4500 })], { altitude: 3000, age: 30, routeId: null }),
    ).toBeUndefined();
  });
});
