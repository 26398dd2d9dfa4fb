import { randomUUID } from 'node:crypto';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  ledgerOf,
  pay,
  paymentStatus,
  placeGroup,
  placeOrder,
  RETURN_URL,
  submitCheckout,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * POST /sandbox/payments/{paymentRef}/outcome (decision record 0083): a partner's test
 * plays the customer of the sandbox checkout, and the payment ends as after the hosted page's
 * form: signed callback, settlement, policy number, events. client.op checks every body against
 * the spec's schema for its status.
 */
const { server, client } = useTestServer();
let agency: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Sandbox Outcome Treks Pvt. Ltd.' });
  stranger = await newPartner(server, client, { name: 'Stranger Outcome Treks' });
});

const outcomePath = (paymentRef: string) =>
  `/api/external/v1/sandbox/payments/${encodeURIComponent(paymentRef)}/outcome`;
const decide = (caller: TestPartner, paymentRef: string, outcome: string) =>
  client.op('setSandboxPaymentOutcome', 'POST', outcomePath(paymentRef), { outcome }, { token: caller.token });

async function startedPayment(gateway: 'card_gateway' | 'wallet_gateway' = 'card_gateway') {
  const order = await placeOrder(server, client, agency);
  const started = await pay(client, agency, order.orderRef, { gateway, returnUrl: RETURN_URL });
  expectStatus(started, 200);
  return {
    order,
    paymentRef: started.body.data.paymentRef as string,
    paymentUrl: started.body.data.paymentUrl as string,
  };
}

const eventTypesOf = async (orderRef: string) =>
  (await server.orm.em.fork().find(WebhookEvent, { companyId: agency.companyId }, { orderBy: { createdAt: 'asc' } }))
    .filter((event) => (event.payload.data as { orderRef?: string }).orderRef === orderRef)
    .map((event) => event.type);

describe('POST /sandbox/payments/{paymentRef}/outcome', () => {
  it('when the outcome is CAPTURED, then the order is PAID with its policy number, as after the checkout page, and order.paid is sent', async () => {
    const { order, paymentRef } = await startedPayment();
    const response = await decide(agency, paymentRef, 'CAPTURED');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      orderRef: order.orderRef,
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef,
      paymentMethod: 'CARD_GATEWAY',
      amount: order.totalAmount,
    });
    expect(response.body.data.policyNumber).toMatch(/^SBX-POL-\d{4}-\d+$/);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
    });
    expect(await eventTypesOf(order.orderRef)).toEqual(['order.paid']);
  });

  it('when the wallet customer pays, then the wallet payment is captured the same way', async () => {
    const { order, paymentRef } = await startedPayment('wallet_gateway');
    const response = await decide(agency, paymentRef, 'CAPTURED');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      orderRef: order.orderRef,
      orderStatus: 'PAID',
      paymentMethod: 'WALLET_GATEWAY',
    });
  });

  it.each([
    ['DECLINED', 'FAILED', 'payment.failed', 'CARD_DECLINED'],
    ['INSUFFICIENT_FUNDS', 'FAILED', 'payment.failed', 'INSUFFICIENT_FUNDS'],
    ['CANCELLED_BY_CUSTOMER', 'CANCELLED', 'payment.cancelled', 'CANCELLED_BY_CUSTOMER'],
  ])(
    'when the outcome is %s, then the payment ends %s, the order stays PENDING and %s is sent',
    async (outcome, status, eventType, reason) => {
      const { order, paymentRef } = await startedPayment();
      const response = await decide(agency, paymentRef, outcome);
      expectStatus(response, 200);
      expect(response.body.data).toMatchObject({
        orderRef: order.orderRef,
        orderStatus: 'PENDING',
        paymentStatus: status,
        paymentRef,
      });
      expect(await eventTypesOf(order.orderRef)).toEqual([eventType]);
      const events = await server.orm.em.fork().find(WebhookEvent, { companyId: agency.companyId, type: eventType });
      expect(
        events
          .map((event) => event.payload.data)
          .find((data) => (data as { paymentRef?: string }).paymentRef === paymentRef),
      ).toMatchObject({ reason });
    },
  );

  it('when the customer walks away (ABANDONED), then the checkout is closed as an expired one is and payment.expired is sent', async () => {
    const { order, paymentRef } = await startedPayment();
    const response = await decide(agency, paymentRef, 'ABANDONED');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      orderRef: order.orderRef,
      orderStatus: 'PENDING',
      paymentStatus: 'EXPIRED',
    });
    expect((await ledgerOf(server, order.orderId)).attempts).toMatchObject([
      { paymentRef, status: 'EXPIRED', closedReason: 'EXPIRED' },
    ]);
    expect(await eventTypesOf(order.orderRef)).toEqual(['payment.expired']);
  });

  it('when the payment has already ended, then 409 PAYMENT_ALREADY_FINAL and nothing changes', async () => {
    const { order, paymentRef } = await startedPayment();
    expectStatus(await decide(agency, paymentRef, 'DECLINED'), 200);
    const again = await decide(agency, paymentRef, 'CAPTURED');
    expectStatus(again, 409);
    expect(again.body).toMatchObject({
      code: 'PAYMENT_ALREADY_FINAL',
      message: `Payment ${paymentRef} is already FAILED (declined by the gateway): decide a new payment instead (POST /orders/${order.orderRef}/pay with a new Idempotency-Key, or the newer payment named)`,
    });
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PENDING');
  });

  it("when the customer already decided on the checkout page, then 409 PAYMENT_ALREADY_FINAL: the page's decision stands", async () => {
    const { order, paymentRef, paymentUrl } = await startedPayment();
    expectStatus(await submitCheckout(paymentUrl, APPROVE_CARD), 303);
    const response = await decide(agency, paymentRef, 'DECLINED');
    expectStatus(response, 409);
    expect(response.body.code).toBe('PAYMENT_ALREADY_FINAL');
    // The browser never came back: payment-status asks the gateway, whose decision pays the order.
    expect((await paymentStatus(client, agency, order.orderRef)).body.data.orderStatus).toBe('PAID');
  });

  it('when a newer payment superseded the attempt, then 409 PAYMENT_ALREADY_FINAL', async () => {
    const { order, paymentRef } = await startedPayment();
    const newer = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(newer, 200);
    const response = await decide(agency, paymentRef, 'CAPTURED');
    expectStatus(response, 409);
    expect(response.body.code).toBe('PAYMENT_ALREADY_FINAL');
    expect(response.body.message).toContain(
      `is already CANCELLED (superseded by payment ${newer.body.data.paymentRef}): decide a new payment instead`,
    );
  });

  it('when another company names the payment, then 404 as for an unknown one, and the payment stays open', async () => {
    const { order, paymentRef } = await startedPayment();
    const response = await decide(stranger, paymentRef, 'CAPTURED');
    expectStatus(response, 404);
    expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: `Payment ${paymentRef} not found` });
    expectStatus(await decide(agency, 'ORD-2030-999999-1916122811482', 'CAPTURED'), 404);
    expect((await ledgerOf(server, order.orderId)).attempts).toMatchObject([{ paymentRef, status: 'INITIATED' }]);
  });

  it('when the outcome is not one of the six, then 400 naming the field', async () => {
    const { paymentRef } = await startedPayment();
    const response = await decide(agency, paymentRef, 'PAID');
    expectStatus(response, 400);
    expect(Object.keys(response.body.details.fieldErrors)).toEqual(['outcome']);
  });

  it("when a group payment is captured, then every order of the group is PAID and the answer is its first order's status", async () => {
    const group = await placeGroup(server, client, agency, 2);
    const started = await client.op(
      'payGroup',
      'POST',
      `/api/external/v1/orders/groups/${group.groupRef}/pay`,
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    const response = await decide(agency, started.body.data.paymentRef, 'CAPTURED');
    expectStatus(response, 200);
    const first = [...group.orders].sort((a, b) => a.orderRef.localeCompare(b.orderRef))[0]!;
    expect(response.body.data).toMatchObject({
      orderRef: first.orderRef,
      orderStatus: 'PAID',
      groupRef: group.groupRef,
    });
    for (const order of group.orders) expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PAID');
  });

  it('when a group reference is passed instead of the payment reference, then 404 saying which reference to pass, and the group payment stays open', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const started = await client.op(
      'payGroup',
      'POST',
      `/api/external/v1/orders/groups/${group.groupRef}/pay`,
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(started, 200);
    const response = await decide(agency, group.groupRef, 'CAPTURED');
    expectStatus(response, 404);
    expect(response.body).toMatchObject({
      code: 'NOT_FOUND',
      message: `Payment ${group.groupRef} not found: ${group.groupRef} is a group reference; pass the paymentRef that POST /orders/groups/${group.groupRef}/pay answered (it decides the whole group's payment)`,
    });
    const order = group.orders[0]!;
    const byOrder = await decide(agency, order.orderRef, 'CAPTURED');
    expectStatus(byOrder, 404);
    expect(byOrder.body.message).toContain(`${order.orderRef} is an order reference`);
    for (const each of group.orders) expect((await ledgerOf(server, each.orderId)).orderStatus).toBe('PENDING');
  });
});

describe('POST /sandbox/payments/{paymentRef}/outcome with PENDING (the gateway has not decided)', () => {
  it('when the outcome is PENDING, then the order stays PENDING, the payment INITIATED, the gateway answers undecided and no event is sent', async () => {
    const { order, paymentRef } = await startedPayment();
    const response = await decide(agency, paymentRef, 'PENDING');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      orderRef: order.orderRef,
      orderStatus: 'PENDING',
      paymentStatus: 'INITIATED',
    });
    const atGateway = await server.gateways.sandbox.get('card_gateway')!.lookupStatus({
      paymentRef,
      amount: Math.round(order.totalAmount * 100),
      currency: 'NPR',
    });
    expect(atGateway).toEqual({ decided: false });
    // Asked again: still pending, the same answer.
    expectStatus(await decide(agency, paymentRef, 'PENDING'), 200);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'INITIATED',
    });
    expect(await eventTypesOf(order.orderRef)).toEqual([]);
  });

  it('when a PENDING payment is later CAPTURED, then the order is PAID as after any capture', async () => {
    const { order, paymentRef } = await startedPayment();
    expectStatus(await decide(agency, paymentRef, 'PENDING'), 200);
    const response = await decide(agency, paymentRef, 'CAPTURED');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      orderRef: order.orderRef,
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
    });
    expect(await eventTypesOf(order.orderRef)).toContain('order.paid');
  });

  it('when a PENDING card payment is later DECLINED, then it is FAILED and the order stays PENDING', async () => {
    const { order, paymentRef } = await startedPayment();
    expectStatus(await decide(agency, paymentRef, 'PENDING'), 200);
    const response = await decide(agency, paymentRef, 'DECLINED');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'FAILED' });
    expect((await ledgerOf(server, order.orderId)).attempts).toMatchObject([{ paymentRef, status: 'FAILED' }]);
  });

  it('when the checkout of a PENDING card payment closes, then the gateway cannot void it: the attempt is EXPIRED, not FAILED, the gateway still answers undecided, and a later capture is taken as any capture after the close', async () => {
    const { order, paymentRef } = await startedPayment();
    expectStatus(await decide(agency, paymentRef, 'PENDING'), 200);
    const closed = await decide(agency, paymentRef, 'ABANDONED');
    expectStatus(closed, 200);
    expect(closed.body.data).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'EXPIRED' });
    // Nothing written over the gateway's PENDING: the merchant's void did not take its place.
    const lookup = await server.gateways.sandbox.get('card_gateway')!.lookupStatus({
      paymentRef,
      amount: Math.round(order.totalAmount * 100),
      currency: 'NPR',
    });
    expect(lookup).toEqual({ decided: false });
    const late = await decide(agency, paymentRef, 'CAPTURED');
    expectStatus(late, 200);
    // Nothing else paid the order: the provider's capture pays it, as any capture found after the close does.
    expect(late.body.data).toMatchObject({ orderRef: order.orderRef, orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });
});
