import { premiumOfShare, premiumSplit } from '../../src/kernel/premium';
import { cancellationTerms } from '../../src/modules/orders/rules/cancellation';

// package 15,925.00 + included devices 2,030.00 after a 1,000.00 promo; a porter 3,000.00 added by the partner
const order = {
  packagePrice: 1_592_500,
  includedDevices: [{ priceForDuration: 168_000 }, { priceForDuration: 35_000 }],
  companyPromoDiscount: 100_000,
  agentPromoDiscount: 0,
  directDiscountAmount: 0,
  totalAmount: 1_592_500 + 203_000 - 100_000 + 300_000,
};

describe('the insurance premium (decision record 0103)', () => {
  it('is the package after every discount: the included devices are equipment, not insurance', () => {
    expect(premiumSplit(order)).toEqual({ premium: 1_492_500, premiumDiscount: 100_000, includedEquipment: 203_000 });
  });

  it('takes a discount larger than the package off the devices only for what exceeds the package', () => {
    const free = { ...order, companyPromoDiscount: 1_592_500 + 3_000 };
    expect(premiumSplit(free)).toEqual({ premium: 0, premiumDiscount: 1_592_500, includedEquipment: 200_000 });
  });

  it('is the whole premium for a share of the whole total, and its proportion of a smaller share, rounded down', () => {
    expect(premiumOfShare(order, order.totalAmount)).toBe(1_492_500);
    // 1,000.00 of 19,955.00: 1,492,500 × 100,000 / 1,995,500 = 74,793.28…
    expect(premiumOfShare(order, 100_000)).toBe(74_793);
    expect(premiumOfShare(order, 0)).toBe(0);
  });
});

describe('the cancellation fee after the free look', () => {
  const settings = { freeLookDays: 14, cancellationFeePercent: 10 };
  const now = new Date('2030-10-10T06:00:00Z');
  const paid = {
    orderRef: 'ORD-2030-000142',
    status: 'PAID',
    coverageStartDate: '2030-11-01',
    paidAt: new Date('2030-09-20T06:00:00Z'),
    paidShare: order.totalAmount,
    premiumShare: premiumOfShare(order, order.totalAmount),
  };

  it('is 10 % of the premium only: included equipment and added items go back in full', () => {
    // 10 % of 14,925.00 = 1,492.50 kept; 19,955.00 − 1,492.50 = 18,462.50 back
    expect(cancellationTerms(paid, now, settings)).toMatchObject({
      rule: 'CANCELLATION_FEE',
      feeBase: 1_492_500,
      cancellationFee: 149_250,
      refundAmount: 1_995_500 - 149_250,
    });
  });

  it('names the same base within the free look, where no fee is kept, and 0 when no money moves', () => {
    const fresh = { ...paid, paidAt: new Date('2030-10-05T06:00:00Z') };
    expect(cancellationTerms(fresh, now, settings)).toMatchObject({
      rule: 'FREE_LOOK',
      feeBase: 1_492_500,
      cancellationFee: 0,
      refundAmount: 1_995_500,
    });
    const unpaid = { ...paid, status: 'PENDING', paidAt: null, paidShare: 0, premiumShare: 0 };
    expect(cancellationTerms(unpaid, now, settings)).toMatchObject({ rule: 'UNPAID', feeBase: 0, cancellationFee: 0 });
  });
});
