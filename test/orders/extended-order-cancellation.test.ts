import { randomUUID } from 'node:crypto';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  cancelledByOwner,
  capturedInSandbox,
  paidThroughSandbox,
  paymentStatus,
  RETURN_URL,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';
import { eventually } from '../support/eventually';

/**
 * A paid order extended (its top-up settles PAID on the order after the payment that paid it)
 * and then cancelled: the order book's payment status (the `payment_status` column the triggers
 * keep, docs/database-behaviour.md) reads what GET /orders/{orderRef}/payment-status reads, the
 * refund of the payment that paid it, not the newer top-up's SUCCESS (decision record 0105).
 * Through the API end to end, so the order of the writes in the cancellation's flushes is the
 * real one. client.op checks every body against the spec's schema for its status.
 */
const { server, client } = useTestServer();
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Extended Trails Pvt. Ltd.' });
});

it('when an extended order is cancelled, then the order book and payment-status read the same refund status', async () => {
  const { order } = await paidThroughSandbox(server, client, agency);
  const extension = await client.op(
    'extendOrder',
    'POST',
    `${ORDERS}/${order.orderRef}/extension`,
    { gateway: 'card_gateway', returnUrl: RETURN_URL, extraDays: 2 },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );
  expectStatus(extension, 200);
  await capturedInSandbox(client, agency, extension.body.data.paymentRef);
  expectStatus(await cancelledByOwner(client, agency, order.orderRef), 200);

  const read = async () => {
    const [row] = await server.orm.em
      .getConnection()
      .execute<{ payment_status: string }[]>('select payment_status from insurance_order where id = ?', [
        order.orderId,
      ]);
    const reader = await paymentStatus(client, agency, order.orderRef);
    expectStatus(reader, 200);
    return { orderBook: row?.payment_status, paymentStatus: reader.body.data.paymentStatus as string };
  };
  // The refund executor may finish the refund between the two reads: compare once they agree or time runs out.
  const seen = await eventually(read, (value) => value.orderBook === value.paymentStatus);
  expect(seen.paymentStatus).toMatch(/^REFUND/);
  expect(seen.orderBook).toBe(seen.paymentStatus);
});
