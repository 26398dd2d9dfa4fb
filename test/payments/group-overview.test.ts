import { randomUUID } from 'node:crypto';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { at } from '../support/elements';
import type { ApiResponse, WireJson } from '../support/http-client';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_WALLET,
  DECLINE_WALLET,
  deliverCallback,
  groupPayPath,
  pay,
  placeGroup,
  placeOrder,
  RETURN_URL,
  submitCheckout,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/** Issue 37: GET /orders/groups/{groupRef}, the group, its orders as the order book lists them, and the group's payment status. */
const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' } });
let agency: TestPartner;
let other: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client);
  other = await newPartner(server, client);
});

const readGroup = (groupRef: string, partner: TestPartner = agency): Promise<ApiResponse> =>
  client.op('getOrderGroup', 'GET', `${ORDERS}/groups/${encodeURIComponent(groupRef)}`, undefined, {
    token: partner.token,
  });

async function startGroupPayment(groupRef: string): Promise<WireJson> {
  const response = await client.op(
    'payGroup',
    'POST',
    groupPayPath(groupRef),
    { gateway: 'wallet_gateway', returnUrl: RETURN_URL },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );
  expectStatus(response, 200);
  return response.body.data;
}

async function finishCheckout(paymentUrl: string, form: Record<string, string>): Promise<void> {
  expectStatus(await deliverCallback(client, (await submitCheckout(paymentUrl, form)).callbackUrl!), 303);
}

describe('GET /orders/groups/{groupRef}', () => {
  it('answers the group with every order as the order book lists it, in reference order, its totals, and NOT_INITIATED before any payment', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const response = await readGroup(group.groupRef);
    expectStatus(response, 200);
    const data = response.body.data;
    expect(data).toMatchObject({
      groupRef: group.groupRef,
      groupId: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(data.orders.map((order: WireJson) => order.orderRef)).toEqual(group.orders.map((order) => order.orderRef));
    const book = await client.op('listOrders', 'GET', `${ORDERS}?groupRef=${group.groupRef}`, undefined, {
      token: agency.token,
    });
    const listed = new Map(book.body.data.content.map((order: WireJson) => [order.orderRef, order]));
    for (const order of data.orders) expect(order).toEqual(listed.get(order.orderRef));
    expect(data.totals).toEqual({
      currency: 'NPR',
      orderCount: 2,
      subtotal: 9000,
      totalDiscount: 0,
      totalAmount: 9000,
    });
    expect(data.payment).toEqual({
      status: 'NOT_INITIATED',
      paidOrders: 0,
      pendingOrders: 2,
      paidAmount: 0,
      outstandingAmount: 9000,
      refundedAmount: 0,
      netAmount: 0,
      latestGroupPayment: null,
    });
    expect((await readGroup(data.groupId)).body.data.groupRef).toBe(group.groupRef);
  });

  it('follows the group payment: INITIATED at the gateway, FAILED when declined, PAID when a new one succeeds', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const declined = await startGroupPayment(group.groupRef);
    expect((await readGroup(group.groupRef)).body.data.payment).toMatchObject({
      status: 'INITIATED',
      latestGroupPayment: {
        paymentRef: declined.paymentRef,
        paymentMethod: 'WALLET_GATEWAY',
        status: 'INITIATED',
        amount: 9000,
        currency: 'NPR',
        completedAt: null,
      },
    });
    await finishCheckout(declined.paymentUrl, DECLINE_WALLET);
    expect((await readGroup(group.groupRef)).body.data.payment).toMatchObject({
      status: 'FAILED',
      paidOrders: 0,
      latestGroupPayment: { status: 'FAILED', completedAt: expect.any(String) },
    });

    const approved = await startGroupPayment(group.groupRef);
    await finishCheckout(approved.paymentUrl, APPROVE_WALLET);
    const paid = (await readGroup(group.groupRef)).body.data;
    expect(paid.payment).toMatchObject({
      status: 'PAID',
      paidOrders: 2,
      pendingOrders: 0,
      paidAmount: 9000,
      outstandingAmount: 0,
      latestGroupPayment: { paymentRef: approved.paymentRef, status: 'SUCCESS' },
    });
    expect(paid.orders.map((order: WireJson) => [order.status, order.paymentStatus])).toEqual([
      ['PAID', 'SUCCESS'],
      ['PAID', 'SUCCESS'],
    ]);
  });

  it('is PARTIALLY_PAID when some orders were paid on their own and others are still pending', async () => {
    const group = await placeGroup(server, client, agency, 3);
    const alone = await pay(client, agency, at(group.orders, 1, 'the group').orderRef, {
      gateway: 'wallet_gateway',
      returnUrl: RETURN_URL,
    });
    await finishCheckout(alone.body.data.paymentUrl, APPROVE_WALLET);
    expect((await readGroup(group.groupRef)).body.data.payment).toEqual({
      status: 'PARTIALLY_PAID',
      paidOrders: 1,
      pendingOrders: 2,
      paidAmount: 4500,
      outstandingAmount: 9000,
      refundedAmount: 0,
      netAmount: 4500,
      latestGroupPayment: null,
    });
  });

  it('after a paid member is cancelled, shows what its refund gives back and what the group keeps net', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const payment = await startGroupPayment(group.groupRef);
    await finishCheckout(payment.paymentUrl, APPROVE_WALLET);
    const member = at(group.orders, 0, 'the group').orderRef;
    const cancelled = await client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${member}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(cancelled, 200);
    const refund = cancelled.body.data.refund;
    const overview = (await readGroup(group.groupRef)).body.data;
    expect(overview.payment).toMatchObject({
      status: 'PAID',
      paidOrders: 2,
      paidAmount: 9000,
      refundedAmount: refund.amount,
      netAmount: 9000 - refund.amount,
    });
    expect(refund.amount).toBeGreaterThan(0);
    expect(overview.orders.map((order: WireJson) => [order.orderRef, order.refundAmount])).toEqual([
      [member, refund.amount],
      [at(group.orders, 1, 'the group').orderRef, null],
    ]);
  });

  it('is NOTHING_TO_PAY when every order was cancelled unpaid', async () => {
    const group = await placeGroup(server, client, agency, 2);
    for (const order of group.orders)
      await cancelFromCommandLine(server.orm.em.fork(), order.orderRef, 'operator-cli:test', server.payments);
    expect((await readGroup(group.groupRef)).body.data.payment).toMatchObject({
      status: 'NOTHING_TO_PAY',
      paidOrders: 0,
      pendingOrders: 0,
    });
  });

  it("answers 404 for another company's group, as for an unknown one, and for an order reference", async () => {
    const group = await placeGroup(server, client, agency, 1);
    const stranger = await readGroup(group.groupRef, other);
    expectStatus(stranger, 404);
    expect(stranger.body.code).toBe('NOT_FOUND');
    const unknown = await readGroup('GRP-2030-999999');
    expectStatus(unknown, 404);
    expect(stranger.body.message).toBe(unknown.body.message.replace('GRP-2030-999999', group.groupRef));
    const single = await placeOrder(server, client, agency);
    expectStatus(await readGroup(single.orderRef), 404);
  });
});
