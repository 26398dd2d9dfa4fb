import { cancellationTerms } from '../../src/modules/orders/rules/cancellation';
import {
  cashSettlementRefusal,
  parseOperatorAmount,
  type OrderFacts,
} from '../../src/modules/orders/rules/operator-order-rules';

const pendingCash: OrderFacts & { coverageStartDate: string } = {
  orderRef: 'ORD-2026-000142',
  status: 'PENDING',
  settlementType: 'CASH',
  totalAmount: 450_000,
  currency: 'NPR',
  paidAt: null,
  coverageStartDate: '2026-12-10',
};
const TODAY = '2026-12-10';

describe('cancelling an order from the command line (the one rule set, rules/cancellation.ts)', () => {
  const settings = { freeLookDays: 14, cancellationFeePercent: 10 };
  const now = new Date('2026-11-20T06:00:00Z');
  const facts = {
    orderRef: 'ORD-2026-000142',
    status: 'PENDING',
    coverageStartDate: '2026-12-20',
    paidAt: null,
    paidShare: 0,
    premiumShare: 0,
  };

  it('without a note, cancels a PENDING unpaid order only', () => {
    expect(cancellationTerms(facts, now, settings, 'OPERATOR')).toMatchObject({ cancellable: true, rule: 'UNPAID' });
    for (const status of ['PAID', 'COMPLETED', 'CLOSED']) {
      expect(
        cancellationTerms(
          { ...facts, status, paidAt: now, paidShare: 450_000, premiumShare: 380_000 },
          now,
          settings,
          'OPERATOR',
        ),
      ).toMatchObject({
        cancellable: false,
        notCancellableReason: `order ORD-2026-000142 is ${status}; only a PENDING order can be cancelled without --note (a paid order is cancelled with a refund: give --note)`,
        refundAmount: 0,
      });
    }
    expect(cancellationTerms({ ...facts, status: 'CANCELLED' }, now, settings, 'OPERATOR')).toMatchObject({
      cancellable: false,
      rule: 'ALREADY_CANCELLED',
    });
  });

  it('with a note, cancels a paid order even once its cover started, with the refund of its payment date', () => {
    const started = {
      ...facts,
      status: 'PAID',
      paidAt: now,
      paidShare: 450_000,
      premiumShare: 380_000,
      coverageStartDate: '2026-11-19',
    };
    expect(cancellationTerms(started, now, settings, 'OPERATOR_WITH_NOTE')).toMatchObject({
      cancellable: true,
      rule: 'FREE_LOOK',
      refundAmount: 450_000,
    });
    expect(cancellationTerms(started, now, settings, 'PARTNER')).toMatchObject({
      cancellable: false,
      rule: 'COVER_STARTED',
    });
  });
});

describe('recording cash for an order', () => {
  it('is allowed for a PENDING CASH order and exactly its total', () => {
    expect(cashSettlementRefusal(pendingCash, { amount: 450_000, today: TODAY })).toBeNull();
  });
  it('is refused for an ONLINE order: it is paid online', () => {
    expect(
      cashSettlementRefusal({ ...pendingCash, settlementType: 'ONLINE' }, { amount: 450_000, today: TODAY }),
    ).toMatch(/settled ONLINE; it is paid online/);
  });
  it('is refused for an order that is not PENDING, whatever the amount', () => {
    expect(
      cashSettlementRefusal({ ...pendingCash, status: 'PAID', paidAt: new Date() }, { amount: 450_000, today: TODAY }),
    ).toMatch(/is PAID; cash can only be recorded for a PENDING order/);
    expect(cashSettlementRefusal({ ...pendingCash, status: 'CANCELLED' }, { amount: 1, today: TODAY })).toMatch(
      /is CANCELLED/,
    );
  });
  it('is refused for one paisa more or less than the total', () => {
    expect(cashSettlementRefusal(pendingCash, { amount: 449_999, today: TODAY })).toBe(
      'amount NPR 4499.99 does not match the order total NPR 4500.00',
    );
    expect(cashSettlementRefusal(pendingCash, { amount: 450_001, today: TODAY })).toBe(
      'amount NPR 4500.01 does not match the order total NPR 4500.00',
    );
  });
  it("is allowed on the cover's first day, refused after it unless the operator forces it", () => {
    expect(cashSettlementRefusal(pendingCash, { amount: 450_000, today: '2026-12-10' })).toBeNull();
    expect(cashSettlementRefusal(pendingCash, { amount: 450_000, today: '2026-12-11' })).toMatch(
      /started on 2026-12-10 \(Nepal date\); cash is recorded after that day only with --force and a --note/,
    );
    expect(cashSettlementRefusal(pendingCash, { amount: 450_000, today: '2026-12-11', forced: true })).toBeNull();
  });
});

describe('an amount typed by an operator', () => {
  it('reads whole and decimal amounts into minor units', () => {
    expect(parseOperatorAmount('4500')).toBe(450_000);
    expect(parseOperatorAmount('4500.5')).toBe(450_050);
    expect(parseOperatorAmount('4500.00')).toBe(450_000);
    expect(parseOperatorAmount(' 0.07 ')).toBe(7);
  });
  it('refuses what it would have to round, sign, group or guess', () => {
    for (const text of [
      '4500.005',
      '-4500',
      '+4500',
      '4,500',
      '4 500',
      '4500.',
      '.50',
      '1e3',
      'abc',
      '',
      '12345678901',
    ]) {
      expect(parseOperatorAmount(text)).toBeNull();
    }
  });
});
