import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { confirmRefund } from '../../src/modules/refunds/refund-operations';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { newPartner, type TestPartner } from '../support/partners';
import { paidThroughSandbox, placeOrder } from '../support/payment-fixtures';
import { sample } from '../support/metrics-sample';
import { useTestServer } from '../support/test-server';

/**
 * Decision record 0111: `refunds_total` counts refunds reaching a status where the status is
 * written (moveRefund, and a refund recorded PENDING), after the commit: an operator's cancel
 * from the command line, a confirmation and a late capture count as the API's cancel does.
 */
const { server, client } = useTestServer();
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Counted Refunds Treks Pvt. Ltd.' });
});

async function refundsTotal(gateway: string, status: string): Promise<number> {
  const metrics = await client.op<string>('getMetrics', 'GET', '/metrics');
  return sample(metrics.body, 'refunds_total', { gateway, status }) ?? 0;
}

/** `ops order cancel <orderRef> --note`, as the command line runs it, with this server's deps (and so its metrics). */
const cancelledByOperator = (orderRef: string) =>
  cancelFromCommandLine(server.orm.em.fork(), orderRef, 'operator-cli:test', server.payments, undefined, 'by phone');

describe('refunds_total', () => {
  it('counts the refund of an order the operator cancels from the command line (ops order cancel)', async () => {
    const { order } = await paidThroughSandbox(server, client, agency);
    const before = await refundsTotal('card_gateway', 'PENDING');
    await cancelledByOperator(order.orderRef);
    expect(await refundsTotal('card_gateway', 'PENDING')).toBe(before + 1);
  });

  it('counts a cash refund MANUAL when recorded and SUCCEEDED when the operator confirms it, once each', async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    await recordCashPayment(
      server.orm.em.fork(),
      order.orderRef,
      { amount: Math.round(order.totalAmount * 100) },
      'operator-cli:test',
    );
    const [manual, succeeded] = [await refundsTotal('cash', 'MANUAL'), await refundsTotal('cash', 'SUCCEEDED')];
    await cancelledByOperator(order.orderRef);
    expect(await refundsTotal('cash', 'MANUAL')).toBe(manual + 1);
    const refund = await server.orm.em.fork().findOneOrFail(Refund, { order: { orderRef: order.orderRef } });
    await confirmRefund(server.orm.em.fork(), server.payments, refund.refundRef, 'CASH-BACK-1', 'operator-cli:test');
    expect([await refundsTotal('cash', 'MANUAL'), await refundsTotal('cash', 'SUCCEEDED')]).toEqual([
      manual + 1,
      succeeded + 1,
    ]);
  });
});
