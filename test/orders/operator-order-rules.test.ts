import { cancellationRefusal, cashSettlementRefusal, parseOperatorAmount, type OrderFacts } from '../../src/modules/orders/rules/operator-order-rules';

const pendingCash: OrderFacts & { coverageStartDate: string } = { orderRef: 'ORD-2026-000142', status: 'PENDING', settlementType: 'CASH', totalAmount: 450_000, currency: 'NPR', paidAt: null, coverageStartDate: '2026-12-10' };
const TODAY = '2026-12-10';

describe('cancelling an order from the command line', () => {
  it('is allowed for a PENDING order only', () => {
    expect(cancellationRefusal(pendingCash)).toBeNull();
    expect(cancellationRefusal({ ...pendingCash, settlementType: 'ONLINE' })).toBeNull();
    for (const status of ['PAID', 'COMPLETED', 'CLOSED', 'CANCELLED']) {
      expect(cancellationRefusal({ ...pendingCash, status })).toBe(`order ORD-2026-000142 is ${status}; only a PENDING order can be cancelled`);
    }
  });
  it('is refused for a PENDING order that already has a payment time', () => {
    expect(cancellationRefusal({ ...pendingCash, paidAt: new Date() })).toMatch(/only a PENDING order/);
  });
});

describe('recording cash for an order', () => {
  it('is allowed for a PENDING CASH order and exactly its total', () => {
    expect(cashSettlementRefusal(pendingCash, { amount: 450_000, today: TODAY })).toBeNull();
  });
  it('is refused for an ONLINE order: it is paid online', () => {
    expect(cashSettlementRefusal({ ...pendingCash, settlementType: 'ONLINE' }, { amount: 450_000, today: TODAY })).toMatch(/settled ONLINE; it is paid online/);
  });
  it('is refused for an order that is not PENDING, whatever the amount', () => {
    expect(cashSettlementRefusal({ ...pendingCash, status: 'PAID', paidAt: new Date() }, { amount: 450_000, today: TODAY })).toMatch(/is PAID; cash can only be recorded for a PENDING order/);
    expect(cashSettlementRefusal({ ...pendingCash, status: 'CANCELLED' }, { amount: 1, today: TODAY })).toMatch(/is CANCELLED/);
  });
  it('is refused for one paisa more or less than the total', () => {
    expect(cashSettlementRefusal(pendingCash, { amount: 449_999, today: TODAY })).toBe('amount NPR 4499.99 does not match the order total NPR 4500.00');
    expect(cashSettlementRefusal(pendingCash, { amount: 450_001, today: TODAY })).toBe('amount NPR 4500.01 does not match the order total NPR 4500.00');
  });
  it('is allowed on the cover\'s first day, refused after it unless the operator forces it', () => {
    expect(cashSettlementRefusal(pendingCash, { amount: 450_000, today: '2026-12-10' })).toBeNull();
    expect(cashSettlementRefusal(pendingCash, { amount: 450_000, today: '2026-12-11' })).toMatch(/started on 2026-12-10 \(Nepal date\); cash is recorded after that day only with --force and a --note/);
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
    for (const text of ['4500.005', '-4500', '+4500', '4,500', '4 500', '4500.', '.50', '1e3', 'abc', '', '12345678901']) {
      expect(parseOperatorAmount(text)).toBeNull();
    }
  });
});
