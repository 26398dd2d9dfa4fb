import {
  extendedDuration,
  extensionAsk,
  extensionPrice,
  extensionRefusal,
  extensionTimeRefusal,
  requestedEnd,
} from '../../src/modules/orders/rules/extension';
import { certificateVersion, versionLine } from '../../src/modules/certificates/rules/certificate-version';

/** Decision record 0099: the pure rules, with figures computed by hand. */
const current = { coverageStartDate: '2031-10-05', coverageEndDate: '2031-10-11' };
const facts = {
  orderRef: 'ORD-2031-000001',
  orderStatus: 'PAID',
  current,
  newEnd: '2031-10-14',
  maxDurationDays: 365,
  today: '2031-10-08',
};

describe('the new end an extension asks for', () => {
  it('is the coverageEndDate sent, or the current end plus extraDays', () => {
    expect(requestedEnd(current, { coverageEndDate: '2031-10-20' })).toBe('2031-10-20');
    expect(requestedEnd(current, { extraDays: 3 })).toBe('2031-10-14');
    expect(requestedEnd(current, { extraDays: 25 })).toBe('2031-11-05');
  });

  it('is exactly one of coverageEndDate and extraDays', () => {
    expect(extensionAsk({ extraDays: 2 })).toEqual({ extraDays: 2 });
    expect(() => extensionAsk({})).toThrow('Validation failed');
    expect(() => extensionAsk({ coverageEndDate: '2031-10-20', extraDays: 2 })).toThrow('Validation failed');
  });

  it('counts the days of cover from the first day to the new last day, both included', () => {
    expect(extendedDuration(current, '2031-10-14')).toBe(10);
    expect(extendedDuration(current, '2031-10-11')).toBe(7);
  });
});

describe('the rules an extension can never pass', () => {
  it('allows a later end within the maximum for a paid order', () => {
    expect(extensionRefusal(facts)).toBeNull();
  });

  it('refuses an order that is not PAID with ORDER_NOT_PAID', () => {
    expect(extensionRefusal({ ...facts, orderStatus: 'PENDING' })?.code).toBe('ORDER_NOT_PAID');
    expect(extensionRefusal({ ...facts, orderStatus: 'CANCELLED' })?.code).toBe('ORDER_NOT_PAID');
  });

  it('refuses a new end on or before the current end with EXTENSION_NOT_LATER', () => {
    expect(extensionRefusal({ ...facts, newEnd: '2031-10-11' })?.code).toBe('EXTENSION_NOT_LATER');
    expect(extensionRefusal({ ...facts, newEnd: '2031-10-09' })?.code).toBe('EXTENSION_NOT_LATER');
    expect(extensionRefusal({ ...facts, newEnd: '2031-10-12' })).toBeNull();
  });

  it("refuses a cover longer than the package's maximum with EXTENSION_TOO_LONG, and allows exactly the maximum", () => {
    // 2031-10-05 .. 2031-10-14 is 10 days.
    expect(extensionRefusal({ ...facts, maxDurationDays: 9 })?.code).toBe('EXTENSION_TOO_LONG');
    expect(extensionRefusal({ ...facts, maxDurationDays: 10 })).toBeNull();
  });
});

describe('the rule of time: requested before the current cover ends (Nepal date)', () => {
  it('allows up to and including the last day of cover, and refuses the day after with COVER_ENDED', () => {
    expect(extensionTimeRefusal({ ...facts, today: '2031-10-04' })).toBeNull();
    expect(extensionTimeRefusal({ ...facts, today: '2031-10-11' })).toBeNull();
    expect(extensionTimeRefusal({ ...facts, today: '2031-10-12' })?.code).toBe('COVER_ENDED');
  });
});

describe('the price of an extension', () => {
  it('without discounts: the new premium less what was paid', () => {
    // 7 days paid 4,500.00; 10 days cost 4,500.00 + 3 x 350.00 = 5,550.00.
    expect(extensionPrice({ totalAmount: 450_000, insurancePrice: 450_000, addedItemsPrice: 0 }, 555_000)).toEqual({
      newPremium: 555_000,
      amountDue: 105_000,
    });
  });

  it("keeps the order's discount share on the insurance, and added items as they were", () => {
    // Insurance 4,500.00 paid 3,600.00 (20% off) plus 1,000.00 of added items: 4,600.00 paid.
    // New insurance 5,550.00 at 80% = 4,440.00; plus 1,000.00 = 5,440.00; due 840.00.
    expect(
      extensionPrice({ totalAmount: 460_000, insurancePrice: 450_000, addedItemsPrice: 100_000 }, 555_000),
    ).toEqual({ newPremium: 544_000, amountDue: 84_000 });
  });

  it('rounds the discounted premium half-up to a minor unit', () => {
    // 1,000.01 x 2/3 = 666.673... -> 666.67; 1,000.02 x 2/3 = 666.68.
    expect(extensionPrice({ totalAmount: 200, insurancePrice: 300, addedItemsPrice: 0 }, 100_001).newPremium).toBe(
      66_667,
    );
    expect(extensionPrice({ totalAmount: 2, insurancePrice: 4, addedItemsPrice: 0 }, 5).newPremium).toBe(3);
  });

  it('is never negative: a cheaper new premium is nothing due', () => {
    expect(extensionPrice({ totalAmount: 450_000, insurancePrice: 450_000, addedItemsPrice: 0 }, 400_000)).toEqual({
      newPremium: 400_000,
      amountDue: 0,
    });
  });
});

describe("the certificate's version line", () => {
  const paidAt = new Date('2031-10-01T04:00:00Z');
  it('counts an extension after a date change as the third version and names the last change', () => {
    const version = certificateVersion(paidAt, [
      { at: new Date('2031-10-03T04:00:00Z'), change: 'departure moved from 2031-10-04 to 2031-10-05' },
      { at: new Date('2031-10-09T04:00:00Z'), change: 'cover extended from 2031-10-11 to 2031-10-14' },
    ]);
    expect(version.number).toBe(3);
    expect(versionLine(version)).toBe('Version 3, amended 2031-10-09: cover extended from 2031-10-11 to 2031-10-14');
  });
});
