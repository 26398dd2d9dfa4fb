import { groupPaymentOf, type GroupMember } from '../../src/modules/payments/rules/group-payment';

const pending: GroupMember = { pending: true, paid: false, totalAmount: 450_000, refunded: 0 };
const paid: GroupMember = { pending: false, paid: true, totalAmount: 450_000, refunded: 0 };
const cancelledUnpaid: GroupMember = { pending: false, paid: false, totalAmount: 450_000, refunded: 0 };
const paidThenCancelled: GroupMember = { pending: false, paid: true, totalAmount: 450_000, refunded: 405_000 };

describe('groupPaymentOf: where a group payment stands', () => {
  it('before any order is paid, the latest group payment speaks (NOT_INITIATED without one)', () => {
    expect(groupPaymentOf([pending, pending], null).status).toBe('NOT_INITIATED');
    expect(groupPaymentOf([pending, pending], 'INITIATED').status).toBe('INITIATED');
    expect(groupPaymentOf([pending, cancelledUnpaid], 'EXPIRED').status).toBe('EXPIRED');
    expect(groupPaymentOf([pending], 'REFUND_PENDING').status).toBe('REFUND_PENDING');
  });

  it('once an order is paid, the orders speak: PARTIALLY_PAID while some are pending, PAID when none is', () => {
    expect(groupPaymentOf([paid, pending], 'FAILED')).toEqual({
      status: 'PARTIALLY_PAID',
      paidOrders: 1,
      pendingOrders: 1,
      paidAmount: 450_000,
      outstandingAmount: 450_000,
      refundedAmount: 0,
      netAmount: 450_000,
    });
    expect(groupPaymentOf([paid, cancelledUnpaid], 'SUCCESS').status).toBe('PAID');
  });

  it('a paid order cancelled since counts as paid, and its refund is taken off what the group keeps net', () => {
    expect(groupPaymentOf([paid, paidThenCancelled], 'SUCCESS')).toMatchObject({
      status: 'PAID',
      paidAmount: 900_000,
      refundedAmount: 405_000,
      netAmount: 495_000,
    });
  });

  it('with no order pending and none paid there is NOTHING_TO_PAY, whatever the last attempt said', () => {
    expect(groupPaymentOf([cancelledUnpaid, cancelledUnpaid], 'INITIATED').status).toBe('NOTHING_TO_PAY');
  });
});
