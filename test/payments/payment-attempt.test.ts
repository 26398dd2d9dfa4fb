import {
  effectOfGatewayWord,
  isExpired,
  needsReconciliation,
  settlementPlan as planOf,
  shareStatus,
} from '../../src/modules/payments/rules/payment-attempt';
import { nextReferenceMillis, paymentReference } from '../../src/modules/payments/rules/payment-reference';
import { payRequestFingerprint } from '../../src/modules/payments/rules/payment-request';

describe('the gateway word on an attempt', () => {
  it('completes an open attempt with the gateway status', () => {
    expect(effectOfGatewayWord({ status: 'INITIATED', gatewayConfirmed: false }, 'FAILED')).toEqual({
      kind: 'COMPLETE',
      status: 'FAILED',
    });
  });
  it('treats any word after the first as a replay', () => {
    for (const status of ['SUCCESS', 'FAILED', 'CANCELLED'] as const) {
      expect(effectOfGatewayWord({ status, gatewayConfirmed: true }, 'SUCCESS')).toEqual({ kind: 'REPLAY' });
    }
  });
  it('never records a second capture for an attempt whose capture is already recorded, paid or owed back', () => {
    for (const status of ['SUCCESS', 'REFUND_PENDING', 'REFUNDED'] as const) {
      expect(effectOfGatewayWord({ status, gatewayConfirmed: false }, 'SUCCESS')).toEqual({ kind: 'REPLAY' });
    }
  });
  it('records a capture on an attempt we had closed as a late capture, and a non-capture as a confirmation', () => {
    expect(effectOfGatewayWord({ status: 'CANCELLED', gatewayConfirmed: false }, 'SUCCESS')).toEqual({
      kind: 'LATE_CAPTURE',
    });
    expect(effectOfGatewayWord({ status: 'EXPIRED', gatewayConfirmed: false }, 'SUCCESS')).toEqual({
      kind: 'LATE_CAPTURE',
    });
    expect(effectOfGatewayWord({ status: 'EXPIRED', gatewayConfirmed: false }, 'CANCELLED')).toEqual({
      kind: 'CONFIRM_CLOSED',
    });
  });
});

describe('settling a capture', () => {
  const TODAY = '2026-12-10';
  const line = (
    orderId: string,
    orderStatus: string,
    orderTotal: number,
    charged = orderTotal,
    coverageStartDate = TODAY,
  ) => ({ orderId, orderStatus, orderTotal, charged, coverageStartDate });
  const settlementPlan = (lines: Parameters<typeof planOf>[0]) => planOf(lines, TODAY);
  it('pays every pending order at the charged price', () => {
    expect(settlementPlan([line('a', 'PENDING', 450000), line('b', 'PENDING', 120000)])).toEqual({
      pay: ['a', 'b'],
      refund: [],
      refundAmount: 0,
      refundReason: undefined,
      attemptStatus: 'SUCCESS',
    });
  });
  it('owes back what an already-paid, cancelled or re-priced order cannot take', () => {
    expect(
      settlementPlan([
        line('a', 'PAID', 450000),
        line('b', 'CANCELLED', 1000),
        line('c', 'PENDING', 900, 1000),
        line('d', 'PENDING', 5),
      ]),
    ).toEqual({
      pay: ['d'],
      refund: ['a', 'b', 'c'],
      refundAmount: 452000,
      refundReason: 'ORDER_CANCELLED,ORDER_PAID,ORDER_REPRICED',
      attemptStatus: 'SUCCESS',
    });
  });
  it('calls a capture that paid no order REFUND_PENDING, never SUCCESS', () => {
    expect(settlementPlan([line('a', 'PENDING', 405000, 450000)])).toMatchObject({
      pay: [],
      refundAmount: 450000,
      attemptStatus: 'REFUND_PENDING',
    });
    expect(settlementPlan([line('a', 'CANCELLED', 450000)])).toMatchObject({
      pay: [],
      refundReason: 'ORDER_CANCELLED',
      attemptStatus: 'REFUND_PENDING',
    });
  });
  it("pays an order on its cover's first day, and owes back a capture recorded after it (COVER_STARTED): no cover bought after the fact", () => {
    expect(settlementPlan([line('a', 'PENDING', 450000, 450000, TODAY)])).toMatchObject({
      pay: ['a'],
      attemptStatus: 'SUCCESS',
    });
    expect(
      settlementPlan([
        line('a', 'PENDING', 450000, 450000, '2026-12-09'),
        line('b', 'PENDING', 120000, 120000, '2026-12-11'),
      ]),
    ).toEqual({
      pay: ['b'],
      refund: ['a'],
      refundAmount: 450000,
      refundReason: 'COVER_STARTED',
      attemptStatus: 'SUCCESS',
    });
  });
});

describe('the payment status one order reads', () => {
  it('is SUCCESS only for the share that paid it, whatever the attempt did for the rest of its group', () => {
    expect(shareStatus('SUCCESS', 'PAID')).toBe('SUCCESS');
    expect(shareStatus('SUCCESS', 'REFUND_PENDING')).toBe('REFUND_PENDING');
    expect(shareStatus('SUCCESS', 'REFUNDED')).toBe('REFUNDED');
    expect(shareStatus('REFUND_PENDING', 'REFUND_PENDING')).toBe('REFUND_PENDING');
  });
  it("is the attempt's own status before any capture", () => {
    for (const status of ['INITIATED', 'FAILED', 'CANCELLED', 'EXPIRED'] as const)
      expect(shareStatus(status, null)).toBe(status);
  });
});

describe('when an attempt is due for a gateway lookup', () => {
  const created = new Date('2026-09-20T08:00:00Z');
  const at = (seconds: number) => new Date(created.getTime() + seconds * 1000);
  it('an open attempt after PAYMENT_RECONCILE_AFTER_SECONDS', () => {
    const attempt = { status: 'INITIATED' as const, gatewayConfirmed: false, createdAt: created };
    expect(needsReconciliation(attempt, at(119), 120, 3600)).toBe(false);
    expect(needsReconciliation(attempt, at(120), 120, 3600)).toBe(true);
  });
  it('an attempt we closed, while the watch window lasts; never one the gateway confirmed', () => {
    const closed = { status: 'CANCELLED' as const, gatewayConfirmed: false, createdAt: created, completedAt: at(10) };
    expect(needsReconciliation(closed, at(3000), 120, 3600)).toBe(true);
    expect(needsReconciliation(closed, at(3700), 120, 3600)).toBe(false);
    expect(needsReconciliation({ ...closed, gatewayConfirmed: true }, at(20), 120, 3600)).toBe(false);
  });
  it('an open attempt past its expiry is expired', () => {
    expect(isExpired({ status: 'INITIATED', expiresAt: at(900) }, at(900))).toBe(true);
    expect(isExpired({ status: 'SUCCESS', expiresAt: at(900) }, at(901))).toBe(false);
  });
});

describe('payment references and request fingerprints', () => {
  it('are <owner reference>-<epochMillis>, unique and increasing within an order', () => {
    expect(paymentReference('ORD-2026-000142', 1789892411482)).toBe('ORD-2026-000142-1789892411482');
    expect(nextReferenceMillis(1000, undefined)).toBe(1000);
    expect(nextReferenceMillis(1000, 1000)).toBe(1001);
    expect(nextReferenceMillis(1000, 1500)).toBe(1501);
    expect(nextReferenceMillis(2000, 1500)).toBe(2000);
  });
  it('bind a key to the resolved target and body', () => {
    const base = { target: { kind: 'ORDER' as const, id: 'x' }, gateway: 'card_gateway' };
    expect(payRequestFingerprint(base)).toBe(payRequestFingerprint({ ...base, returnUrl: undefined }));
    expect(payRequestFingerprint(base)).not.toBe(payRequestFingerprint({ ...base, returnUrl: 'https://a.example' }));
    expect(payRequestFingerprint(base)).not.toBe(
      payRequestFingerprint({ ...base, target: { kind: 'GROUP', id: 'x' } }),
    );
  });
});
