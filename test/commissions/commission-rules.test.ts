import { commissionBase, premiumOf, type PremiumParts } from '../../src/modules/commissions/rules/commission-base';
import { certificatePremium } from '../../src/modules/certificates/rules/certificate-premium';
import { earnersOf, type OrderEarnerFacts } from '../../src/modules/commissions/rules/commission-earners';
import { earnedLines } from '../../src/modules/commissions/rules/commission-amounts';
import { reversedAmount } from '../../src/modules/commissions/rules/commission-reversal';
import {
  periodOf,
  periodStatus,
  isPeriod,
  previousPeriod,
} from '../../src/modules/commissions/rules/commission-period';
import { statementPageCount } from '../../src/modules/commissions/rules/statement-pages';
import { statementCsvRow } from '../../src/modules/commissions/rules/statement-csv';
import {
  effectivePercent,
  nepalDateTime,
  partOfBase,
  roleInWords,
  statementNumber,
} from '../../src/modules/commissions/rules/statement-figures';

const CAP = 3_500;
const seller = { id: 'seller', percentBp: 1_000 };
const facts = (overrides: Partial<OrderEarnerFacts> = {}): OrderEarnerFacts => ({
  seller,
  directDiscountBp: 0,
  listedAgencies: [],
  ...overrides,
});
const amounts = (f: OrderEarnerFacts, base: number) =>
  earnedLines(earnersOf(f), base, CAP).map(({ companyId, agentId, role, percentBp, amount }) => ({
    companyId,
    agentId,
    role,
    percentBp,
    amount,
  }));

describe('commission rules', () => {
  describe('the base', () => {
    // package 10,000.00 + devices 2,000.00; promos 1,000.00 + 500.00; direct 10 % of 10,500.00 = 1,050.00; added items 3,000.00
    const order: PremiumParts = {
      packagePrice: 1_000_000,
      includedDevices: [{ priceForDuration: 150_000 }, { priceForDuration: 50_000 }],
      companyPromoDiscount: 100_000,
      agentPromoDiscount: 50_000,
      directDiscountAmount: 105_000,
      totalAmount: 1_245_000,
    };

    it('is the premium, the insurance only: the package after the promo and direct discounts, the included devices left out as equipment (decision 0103)', () => {
      // 10,000.00 − 1,000.00 − 500.00 − 1,050.00: what the certificate prints as "Premium paid"
      expect(premiumOf(order)).toBe(745_000);
      const devices = order.includedDevices.map((device) => ({ ...device, name: 'Satellite tracker', quantity: 1 }));
      const printed = certificatePremium({ ...order, includedDevices: devices });
      expect(printed.premium.paid).toBe(premiumOf(order));
      expect(printed.equipment).toMatchObject({ discount: 0, paid: 200_000 });
    });

    it('leaves out partner-priced added services and devices: a share of the whole total has the premium as base', () => {
      expect(commissionBase(order, 1_245_000)).toBe(745_000);
    });

    it('takes the premium part of a share smaller than the total, rounded down', () => {
      // 1,000.00 of 12,450.00 is paid: 745,000 × 100,000 / 1,245,000 = 59,839.3…
      expect(commissionBase(order, 100_000)).toBe(59_839);
    });

    it('is 0 for an order with nothing to pay', () => {
      expect(
        commissionBase(
          {
            ...order,
            totalAmount: 0,
            packagePrice: 0,
            includedDevices: [],
            companyPromoDiscount: 0,
            agentPromoDiscount: 0,
            directDiscountAmount: 0,
          },
          0,
        ),
      ).toBe(0);
    });
  });

  describe('the seller', () => {
    it('earns its commissionPercent of the base', () => {
      expect(amounts(facts(), 945_000)).toEqual([
        { companyId: 'seller', agentId: undefined, role: 'SELLER', percentBp: 1_000, amount: 94_500 },
      ]);
    });

    it("earns its percent less the order's directDiscountPercent", () => {
      // 10 % - 3 % = 7 % of 9,450.00
      expect(amounts(facts({ directDiscountBp: 300 }), 945_000)[0]).toMatchObject({ percentBp: 700, amount: 66_150 });
    });

    it('earns nothing (no line) when the direct discount is all of its percent or more', () => {
      expect(amounts(facts({ directDiscountBp: 1_000 }), 945_000)).toEqual([]);
      expect(amounts(facts({ directDiscountBp: 1_200 }), 945_000)).toEqual([]);
    });

    it('is rounded down to the paisa', () => {
      // 12.5 % of 1,234.57 = 154.32125
      expect(amounts(facts({ seller: { id: 'seller', percentBp: 1_250 } }), 123_457)[0]!.amount).toBe(15_432);
    });
  });

  describe('listed agencies', () => {
    it('each registered agency other than the seller earns its own percent', () => {
      const lines = amounts(
        facts({
          listedAgencies: [
            { id: 'seller', percentBp: 1_000 },
            { id: 'yeti', percentBp: 500 },
            { id: 'sherpa', percentBp: 250 },
          ],
        }),
        945_000,
      );
      expect(lines.map((line) => [line.companyId, line.role, line.amount])).toEqual([
        ['seller', 'SELLER', 94_500],
        ['yeti', 'LISTED_AGENCY', 47_250],
        ['sherpa', 'LISTED_AGENCY', 23_625],
      ]);
    });

    it('custom agencies earn nothing: they are not registered, so they are never an earner', () => {
      expect(earnersOf(facts()).map((earner) => earner.role)).toEqual(['SELLER']);
    });
  });

  describe('promo code owners', () => {
    it('the owner of an applied company code earns its percent when it is not the seller', () => {
      const lines = amounts(facts({ companyCodeOwner: { id: 'trekco', percentBp: 800 } }), 945_000);
      expect(lines[1]).toMatchObject({ companyId: 'trekco', role: 'CODE_OWNER', amount: 75_600 });
    });

    it("the seller's own company code earns it nothing more", () => {
      expect(amounts(facts({ companyCodeOwner: seller }), 945_000).map((line) => line.role)).toEqual(['SELLER']);
    });

    it("the agent of an applied agent code earns the agent's percent, on its sales company's statement", () => {
      const lines = amounts(facts({ codeAgent: { id: 'agent-1', companyId: 'trekco', percentBp: 200 } }), 945_000);
      expect(lines[1]).toEqual({
        companyId: 'trekco',
        agentId: 'agent-1',
        role: 'AGENT',
        percentBp: 200,
        amount: 18_900,
      });
    });

    it('an agent at the default 0 % gets no line', () => {
      expect(
        amounts(facts({ codeAgent: { id: 'agent-1', companyId: 'trekco', percentBp: 0 } }), 945_000).map(
          (line) => line.role,
        ),
      ).toEqual(['SELLER']);
    });
  });

  describe('the cap', () => {
    it('leaves the shares alone when the earners ask for no more than the cap', () => {
      const lines = earnedLines(
        earnersOf(
          facts({ seller: { id: 'seller', percentBp: 2_000 }, listedAgencies: [{ id: 'yeti', percentBp: 1_500 }] }),
        ),
        1_000_000,
        CAP,
      );
      expect(lines.map((line) => [line.amount, line.capped])).toEqual([
        [200_000, false],
        [150_000, false],
      ]);
    });

    it('scales every share down pro rata when together they would take more than the cap', () => {
      // 20 % + 15 % + 10 % = 45 % of 10,000.00 asked; 35 % allowed: each × 35/45, rounded down
      const lines = earnedLines(
        earnersOf(
          facts({
            seller: { id: 'seller', percentBp: 2_000 },
            listedAgencies: [{ id: 'yeti', percentBp: 1_500 }],
            companyCodeOwner: { id: 'trekco', percentBp: 1_000 },
          }),
        ),
        1_000_000,
        CAP,
      );
      expect(lines.map((line) => line.amount)).toEqual([155_555, 116_666, 77_777]);
      expect(lines.every((line) => line.capped)).toBe(true);
      expect(lines.reduce((sum, line) => sum + line.amount, 0)).toBeLessThanOrEqual(350_000);
    });

    it('stays exact where base × percent × cap is past 2^53', () => {
      // 99,999,999.99 at 35 % of 45 % scaled: 9,999,999,999 × 2000 × 3500 / (10000 × 4500) = 1,555,555,555.4…
      const [line] = earnedLines(
        [
          { companyId: 'seller', role: 'SELLER', percentBp: 2_000 },
          { companyId: 'yeti', role: 'LISTED_AGENCY', percentBp: 2_500 },
        ],
        9_999_999_999,
        CAP,
      );
      expect(line!.amount).toBe(1_555_555_555);
    });
  });

  describe('reversals', () => {
    it('a full refund takes back everything the line earned', () => {
      expect(reversedAmount({ earned: 66_150, share: 1_245_000, refundedBefore: 0, refunded: 1_245_000 })).toBe(
        -66_150,
      );
    });

    it("a partial refund takes back the refund's proportion of the share", () => {
      // a quarter of the share back: the line keeps floor(66,150 × 3/4) = 49,612
      expect(reversedAmount({ earned: 66_150, share: 1_245_000, refundedBefore: 0, refunded: 311_250 })).toBe(-16_538);
    });

    it('partial refunds add up to exactly what one refund of their sum takes back', () => {
      const steps = [1, 1, 1].reduce<{ before: number; taken: number[] }>(
        (acc, refunded) => ({
          before: acc.before + refunded,
          taken: [...acc.taken, reversedAmount({ earned: 70_001, share: 3, refundedBefore: acc.before, refunded })],
        }),
        { before: 0, taken: [] },
      );
      expect(steps.taken).toEqual([-23_334, -23_334, -23_333]);
      expect(steps.taken.reduce((sum, amount) => sum + amount, 0)).toBe(-70_001);
    });

    it('a refund of nothing takes nothing back', () => {
      expect(reversedAmount({ earned: 66_150, share: 1_245_000, refundedBefore: 0, refunded: 0 })).toBe(0);
    });
  });

  describe('periods', () => {
    it('an entry belongs to the Nepal month it occurred in (UTC+5:45)', () => {
      expect(periodOf(new Date('2026-11-30T18:14:59Z'))).toBe('2026-11');
      expect(periodOf(new Date('2026-11-30T18:15:00Z'))).toBe('2026-12');
    });

    it('a period is OPEN until its month is over in Nepal, then CLOSED', () => {
      expect(periodStatus('2026-11', new Date('2026-11-30T18:14:59Z'))).toBe('OPEN');
      expect(periodStatus('2026-11', new Date('2026-11-30T18:15:00Z'))).toBe('CLOSED');
      expect(periodStatus('2026-12', new Date('2026-11-30T18:15:00Z'))).toBe('OPEN');
    });

    it('knows a month when it sees one, and the month before', () => {
      expect([isPeriod('2026-11'), isPeriod('2026-13'), isPeriod('2026-1'), isPeriod('2026-00')]).toEqual([
        true,
        false,
        false,
        false,
      ]);
      expect([previousPeriod('2026-01'), previousPeriod('2026-11')]).toEqual(['2025-12', '2026-10']);
    });
  });
});

describe('the printed and exported statement', () => {
  it('knows its page count before the first line: 28 lines on the first page, 40 on each other, and the closing block on the last', () => {
    expect([0, 17, 18, 28, 29, 57, 58, 68, 50_000].map(statementPageCount)).toEqual([1, 1, 2, 2, 2, 2, 3, 3, 1251]);
  });

  it('gives a capped line the percent it was earned at, so that base × it, rounded down, is the amount', () => {
    // Seller 20 % and a listed agency 20 % ask 40 % of a base of 4,500.00 under a cap of 35 %.
    const [line] = earnedLines(
      [
        { companyId: 's', role: 'SELLER', percentBp: 2_000 },
        { companyId: 'a', role: 'LISTED_AGENCY', percentBp: 2_000 },
      ],
      450_000,
      CAP,
    );
    expect(effectivePercent('20.00', '35.00', '40.00')).toBe('17.50');
    expect(Math.floor((450_000 * 17.5) / 100)).toBe(line!.amount);
    expect(effectivePercent('10.00', '35.00', '45.00')).toBe('7.7777');
    expect(effectivePercent('10.00', '35.00', null)).toBe('10.00');
    expect(effectivePercent('12.50', '35.00', '30.00')).toBe('12.50');
  });

  it('gives a reversal the part of the base its refund stands for: the base its amount is taken back on', () => {
    expect(partOfBase(450_000, 450_000, 405_000)).toBe(405_000);
    // A share with added services: the base is its premium part.
    expect(partOfBase(450_000, 600_000, 300_000)).toBe(225_000);
    expect(partOfBase(450_000, 600_000, 900_000)).toBe(450_000);
  });

  it('dates a line in Nepal time, numbers the statement by period and company, and says each role in words', () => {
    expect(nepalDateTime(new Date('2030-09-30T18:20:00Z'))).toBe('2030-10-01 00:05');
    expect(statementNumber('2030-09', '3f6c2a9e-8b1d-4e7f-9a2c-5d8e1f4b7a60')).toBe('CST-2030-09-3F6C2A9E');
    expect(
      (['SELLER', 'LISTED_AGENCY', 'CODE_OWNER', 'AGENT'] as const).map((role) => roleInWords(role, 'Sita Rai')),
    ).toEqual(['Seller', 'Listed agency', 'Code owner', 'Agent: Sita Rai']);
  });

  it('writes a CSV row with negative amounts as numbers and text that a spreadsheet would run neutralised', () => {
    const row = statementCsvRow({
      lineId: 'l1',
      kind: 'REVERSED',
      role: 'SELLER',
      orderRef: '=HYPERLINK("x")',
      policyNumber: null,
      paymentRef: 'P,1',
      refundRef: 'RFD-2030-000031',
      agentId: null,
      agentName: null,
      agentCode: null,
      base: 450_000,
      percent: '10.00',
      capPercent: '35.00',
      capped: false,
      effectivePercent: '10.00',
      reversedShare: 405_000,
      reversedBase: 405_000,
      amount: -40_500,
      currency: 'NPR',
      occurredAt: new Date('2030-09-28T10:02:11Z'),
      period: '2030-09',
    });
    expect(row).toBe(
      'l1,2030-09-28T10:02:11.000Z,REVERSED,SELLER,"\'=HYPERLINK(""x"")",,"P,1",RFD-2030-000031,,4500.00,10.00,false,-405.00,NPR,35.00,10.00,4050.00,4050.00,,\r\n',
    );
  });
});
