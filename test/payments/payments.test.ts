import { randomUUID } from 'node:crypto';
import { Order, OrderStatus } from '../../src/modules/orders/entities/order';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { at } from '../support/elements';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  CALLBACK,
  DECLINE_CARD,
  DECLINE_WALLET,
  deliverCallback,
  groupPayPath,
  ledgerOf,
  NO_FUNDS_CARD,
  pay,
  paymentStatus,
  placeGroup,
  placeOrder,
  RETURN_URL,
  signedCallbackQuery,
  submitCheckout,
} from '../support/payment-fixtures';
import { serverBehind } from '../support/prism';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

// The background job is off here so each test sees only what it caused; reconciliation.test.ts covers it.
const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' } });
let agency: TestPartner;
let other: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Himalayan Trails Pvt. Ltd.' });
  other = await newPartner(server, client, { name: 'Khumbu Treks' });
});

const attemptCount = (orderId: string) => server.orm.em.fork().count(PaymentAttempt, { orders: { order: orderId } });
const setOrder = (orderId: string, changes: Partial<Pick<Order, 'status' | 'settlementType'>>) =>
  server.orm.em.fork().nativeUpdate(Order, { id: orderId }, changes);

describe('POST /orders/{orderRef}/pay', () => {
  it('when a pending order is paid by card, then an attempt <orderRef>-<epochMillis> for its total is started and its hosted checkout URL returned', async () => {
    const order = await placeOrder(server, client, agency);
    const before = Date.now();
    const response = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(response, 200);
    const data = response.body.data;
    expect(data).toMatchObject({ gateway: 'card_gateway', amount: 4500, currency: 'NPR' });
    expect(data.paymentRef).toMatch(new RegExp(`^${order.orderRef}-\\d{13}$`));
    const millis = Number(data.paymentRef.slice(order.orderRef.length + 1));
    expect(millis).toBeGreaterThanOrEqual(before);
    // The server's own address (also under mock:validate, where the API calls go through Prism).
    expect(data.paymentUrl).toMatch(
      new RegExp(
        `^${serverBehind(server.url)}/sandbox/card_gateway/checkout/${data.paymentRef}\\?t=[A-Za-z0-9_-]{43}$`,
      ),
    );
    expect(new Date(data.expiresAt).getTime() - millis).toBe(15 * 60_000);
  });

  it('accepts the order number, the order UUID and a payment reference as {orderRef}', async () => {
    const order = await placeOrder(server, client, agency);
    const byNumber = await pay(client, agency, order.orderNumber, { gateway: 'wallet_gateway' });
    const byId = await pay(client, agency, order.orderId, { gateway: 'wallet_gateway' });
    const byPaymentRef = await pay(client, agency, byId.body.data.paymentRef, { gateway: 'wallet_gateway' });
    for (const response of [byNumber, byId, byPaymentRef]) {
      expectStatus(response, 200);
      expect(response.body.data.paymentRef.startsWith(`${order.orderRef}-`)).toBe(true);
    }
  });

  it.each([
    ['cash', { gateway: 'cash' }, 'gateway'],
    ['an unknown gateway', { gateway: 'paypal' }, 'gateway'],
    ['a plain-HTTP returnUrl', { gateway: 'card_gateway', returnUrl: 'http://booking.example.com/done' }, 'returnUrl'],
    ['a relative returnUrl', { gateway: 'card_gateway', returnUrl: '/payments/done' }, 'returnUrl'],
    [
      'a returnUrl with credentials',
      { gateway: 'card_gateway', returnUrl: 'https://user:pw@booking.example.com/done' },
      'returnUrl',
    ],
    ['an unknown field', { gateway: 'card_gateway', amount: 1 }, 'amount'],
  ])('when the body has %s, then it is a 400 naming the field and nothing is started', async (_case, body, field) => {
    const order = await placeOrder(server, client, agency);
    const response = await pay(client, agency, order.orderRef, body);
    expectStatus(response, 400);
    expect(Object.keys(response.body.details.fieldErrors)).toContain(field);
    expect(await attemptCount(order.orderId)).toBe(0);
  });

  it.each([
    ['missing', undefined],
    ['not a UUID', 'retry-1'],
  ])('when the Idempotency-Key is %s, then it is a 400 before anything is started', async (_case, key) => {
    const order = await placeOrder(server, client, agency);
    const headers: Record<string, string> = key ? { 'idempotency-key': key } : {};
    const response = await client.op(
      'payOrder',
      'POST',
      `${ORDERS}/${order.orderRef}/pay`,
      { gateway: 'card_gateway' },
      { token: agency.token, headers },
    );
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toHaveProperty('Idempotency-Key');
    expect(await attemptCount(order.orderId)).toBe(0);
  });

  it.each([OrderStatus.Paid, OrderStatus.Completed, OrderStatus.Closed, OrderStatus.Cancelled])(
    'when the order is %s, then it is a 400',
    async (status) => {
      const order = await placeOrder(server, client, agency);
      await setOrder(order.orderId, { status });
      const response = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
      expectStatus(response, 400);
      expect(response.body.message).toContain(status);
      expect(await attemptCount(order.orderId)).toBe(0);
    },
  );

  it('when the order is settled in cash, then it is a 400', async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    const response = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
    expectStatus(response, 400);
    expect(await attemptCount(order.orderId)).toBe(0);
  });

  it('when the order belongs to another company, then it is a 403; when no order matches, a 404', async () => {
    const order = await placeOrder(server, client, agency);
    expectStatus(await pay(client, other, order.orderRef, { gateway: 'card_gateway' }), 403);
    expectStatus(await pay(client, agency, 'ORD-2026-999999', { gateway: 'card_gateway' }), 404);
    expectStatus(await pay(client, agency, `${order.orderRef}-1700000000000`, { gateway: 'card_gateway' }), 404);
    expect(await attemptCount(order.orderId)).toBe(0);
  });

  it('when {orderRef} is a group payment reference, then it is a 400', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const started = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'card_gateway' },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    const response = await pay(client, agency, started.body.data.paymentRef, { gateway: 'card_gateway' });
    expectStatus(response, 400);
    expect(response.body.message).toContain('group payment reference');
  });
});

describe('Idempotency-Key on pay', () => {
  it('when the same key and request are repeated, then the same attempt and paymentUrl come back, marked Idempotency-Replayed', async () => {
    const order = await placeOrder(server, client, agency);
    const key = randomUUID();
    const first = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }, key);
    const again = await pay(
      client,
      agency,
      order.orderNumber,
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      key.toUpperCase(),
    );
    expectStatus(again, 200);
    expect(again.body.data).toEqual(first.body.data);
    expect(first.body.data.status).toBe('INITIATED');
    expect([first.headers.get('idempotency-replayed'), again.headers.get('idempotency-replayed')]).toEqual([
      null,
      'true',
    ]);
    expect(await attemptCount(order.orderId)).toBe(1);
  });

  it('when the key of a declined attempt is sent again, then a 409 PAYMENT_ATTEMPT_ENDED says it FAILED, never its dead paymentUrl', async () => {
    const order = await placeOrder(server, client, agency);
    const key = randomUUID();
    const first = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, key)).body.data;
    const declined = await submitCheckout(first.paymentUrl, DECLINE_CARD);
    await deliverCallback(client, declined.callbackUrl!);
    const again = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, key);
    expectStatus(again, 409);
    expect(again.body).toMatchObject({
      code: 'PAYMENT_ATTEMPT_ENDED',
      message: `Payment ${first.paymentRef}, which this Idempotency-Key started, ended FAILED (declined by the gateway): its paymentUrl takes no payment. Start a new payment with a new Idempotency-Key`,
    });
    expect(JSON.stringify(again.body)).not.toContain(first.paymentUrl);
    expectStatus(await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }), 200);
  });

  it('when the key of a superseded attempt is sent again, then the 409 names the payment that superseded it', async () => {
    const order = await placeOrder(server, client, agency);
    const key = randomUUID();
    const first = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, key)).body.data;
    const newer = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const again = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, key);
    expectStatus(again, 409);
    expect(again.body.code).toBe('PAYMENT_ATTEMPT_ENDED');
    expect(again.body.message).toContain(
      `Payment ${first.paymentRef}, which this Idempotency-Key started, ended CANCELLED (superseded by payment ${newer.paymentRef})`,
    );
  });

  it('when the key of an attempt that paid the order is sent again, then it answers that attempt with status SUCCESS', async () => {
    const order = await placeOrder(server, client, agency);
    const key = randomUUID();
    const first = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, key)).body.data;
    await deliverCallback(client, (await submitCheckout(first.paymentUrl, APPROVE_CARD)).callbackUrl!);
    const again = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, key);
    expectStatus(again, 200);
    expect(again.body.data).toMatchObject({ paymentRef: first.paymentRef, status: 'SUCCESS' });
  });

  it('when the same key comes with another body or another order, then it is a 409 and nothing changes', async () => {
    const order = await placeOrder(server, client, agency);
    const second = await placeOrder(server, client, agency);
    const key = randomUUID();
    await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, key);
    expectStatus(await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' }, key), 409);
    expectStatus(
      await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }, key),
      409,
    );
    expectStatus(await pay(client, agency, second.orderRef, { gateway: 'card_gateway' }, key), 409);
    expect(await attemptCount(order.orderId)).toBe(1);
    expect(await attemptCount(second.orderId)).toBe(0);
  });

  it('scopes keys to the company: another company may use the same key for its own order', async () => {
    const mine = await placeOrder(server, client, agency);
    const theirs = await placeOrder(server, client, other);
    const key = randomUUID();
    expectStatus(await pay(client, agency, mine.orderRef, { gateway: 'card_gateway' }, key), 200);
    expectStatus(await pay(client, other, theirs.orderRef, { gateway: 'card_gateway' }, key), 200);
  });

  it('when a new key is used, then a new attempt starts and supersedes the open one, whose checkout closes', async () => {
    const order = await placeOrder(server, client, agency);
    const first = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const second = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    expect(second.paymentRef).not.toBe(first.paymentRef);
    const ledger = await ledgerOf(server, order.orderId);
    expect(ledger.attempts.map((a) => [a.status, a.closedReason])).toEqual([
      ['CANCELLED', 'SUPERSEDED'],
      ['INITIATED', null],
    ]);
    const closed = await fetch(first.paymentUrl);
    expectStatus(closed, 410);
    const refused = await submitCheckout(first.paymentUrl, APPROVE_CARD);
    expectStatus(refused, 410);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data.paymentRef).toBe(second.paymentRef);
  });

  it('when 50 requests with one key race, then exactly one attempt exists and all 50 get it', async () => {
    const order = await placeOrder(server, client, agency);
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' }, key)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(responses.map((r) => r.body.data.paymentRef)).size).toBe(1);
    expect(await attemptCount(order.orderId)).toBe(1);
  });
});

describe('GET /orders/{orderRef}/payment-status', () => {
  it('when no attempt exists, then the lean shape with NOT_INITIATED is returned', async () => {
    const order = await placeOrder(server, client, agency);
    const response = await paymentStatus(client, agency, order.orderRef);
    expectStatus(response, 200);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toEqual({
      orderRef: order.orderRef,
      orderStatus: 'PENDING',
      paymentStatus: 'NOT_INITIATED',
    });
  });

  it('when an attempt is open, then the full shape without completedAt is returned, also by payment reference', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' })).body.data;
    for (const identifier of [order.orderRef, order.orderNumber, order.orderId, started.paymentRef]) {
      const response = await paymentStatus(client, agency, identifier);
      expect(response.body.data).toEqual({
        orderRef: order.orderRef,
        orderStatus: 'PENDING',
        paymentStatus: 'INITIATED',
        paymentRef: started.paymentRef,
        paymentMethod: 'WALLET_GATEWAY',
        amount: 4500,
        currency: 'NPR',
      });
    }
  });

  it("when the order is another company's, then it is a 403; unknown, a 404; a group payment reference, a 400", async () => {
    const order = await placeOrder(server, client, agency);
    expectStatus(await paymentStatus(client, other, order.orderRef), 403);
    expectStatus(await paymentStatus(client, agency, 'ORDN-2026-999999'), 404);
    const group = await placeGroup(server, client, agency, 2);
    const started = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'wallet_gateway' },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(await paymentStatus(client, agency, started.body.data.paymentRef), 400);
  });
});

describe('hosted checkout and the gateway callback', () => {
  it('acts only with the unguessable token of the link the pay answer gave: the bare (guessable) reference or a wrong token is an unknown payment and changes nothing', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const bare = started.paymentUrl.split('?')[0];
    const forgedToken = `${bare}?t=${'A'.repeat(43)}`;
    for (const url of [bare, forgedToken, `${bare}?t=`]) {
      expectStatus(await fetch(url), 404);
      expectStatus(await submitCheckout(url, { action: 'cancel' }), 404);
    }
    expect((await ledgerOf(server, order.orderId)).attempts).toEqual([
      expect.objectContaining({ status: 'INITIATED', gatewayTransactionId: null }),
    ]);
    expectStatus(await fetch(started.paymentUrl), 200);
    expectStatus(await submitCheckout(started.paymentUrl, { action: 'cancel' }), 303);
  });

  it('when the test card approves, then the browser is redirected (303) to returnUrl?paymentRef= and the order is PAID with SUCCESS', async () => {
    const testBegan = Date.now();
    const order = await placeOrder(server, client, agency);
    const started = (
      await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: `${RETURN_URL}?lang=en` })
    ).body.data;
    const page = await fetch(started.paymentUrl);
    const html = await page.text();
    expectStatus(page, 200);
    expect(html).toContain(order.orderRef);
    expect(html).toContain('NPR 4,500.00');
    expect(html).toContain('Himalayan Trek Cover');
    const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
    expectStatus(checkout, 303);
    const callback = await deliverCallback(client, checkout.callbackUrl!);
    expectStatus(callback, 303);
    expect(callback.headers.get('location')).toBe(`${RETURN_URL}?lang=en&paymentRef=${started.paymentRef}`);
    const status = (await paymentStatus(client, agency, order.orderRef)).body.data;
    expect(status).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: started.paymentRef,
      paymentMethod: 'CARD_GATEWAY',
      amount: 4500,
    });
    // Completed by this test's payment: after the test began, before its status was read.
    expect(Date.parse(status.completedAt)).toBeGreaterThanOrEqual(testBegan);
    expect(Date.parse(status.completedAt)).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    ['a declined card', 'card_gateway', 'FAILED', 'CARD_DECLINED', DECLINE_CARD],
    ['a card without funds', 'card_gateway', 'FAILED', 'INSUFFICIENT_FUNDS', NO_FUNDS_CARD],
    ['the Decline button', 'card_gateway', 'FAILED', 'DECLINED_BY_CUSTOMER', { action: 'decline' }],
    ['the Cancel button', 'wallet_gateway', 'CANCELLED', 'CANCELLED_BY_CUSTOMER', { action: 'cancel' }],
    ['a declined wallet', 'wallet_gateway', 'FAILED', 'WALLET_DECLINED', DECLINE_WALLET],
  ])(
    'when the customer meets %s at the %s, then the attempt ends %s (%s), the order stays PENDING and can be paid again',
    async (_case, gateway, status, reason, form) => {
      const order = await placeOrder(server, client, agency);
      const started = (await pay(client, agency, order.orderRef, { gateway, returnUrl: RETURN_URL })).body.data;
      const checkout = await submitCheckout(started.paymentUrl, form);
      expectStatus(await deliverCallback(client, checkout.callbackUrl!), 303);
      const data = (await paymentStatus(client, agency, order.orderRef)).body.data;
      expect(data).toMatchObject({ orderStatus: 'PENDING', paymentStatus: status });
      expect(data.completedAt).toEqual(expect.any(String));
      const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
      expect(attempt.failureReason).toBe(reason);
      expectStatus(await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }), 200);
    },
  );

  it('when the wallet page gets the wrong PIN or an unknown card, then it asks again and decides nothing', async () => {
    const order = await placeOrder(server, client, agency);
    const wallet = (await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' })).body.data;
    const wrongPin = await submitCheckout(wallet.paymentUrl, { ...APPROVE_WALLET, pin: '9999' });
    expectStatus(wrongPin, 422);
    expect(wrongPin.html).toContain('Wrong PIN');
    const card = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    expectStatus(await submitCheckout(card.paymentUrl, { ...APPROVE_CARD, cardNumber: '5555 5555 5555 4444' }), 422);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data.paymentStatus).toBe('INITIATED');
  });

  it('when the wallet approves and no returnUrl was given, then a plain result page is shown', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' })).body.data;
    const checkout = await submitCheckout(started.paymentUrl, APPROVE_WALLET);
    const callback = await deliverCallback(client, checkout.callbackUrl!);
    expectStatus(callback, 200);
    expect(callback.body).toContain('Payment received');
    expect(callback.body).toContain(started.paymentRef);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentMethod: 'WALLET_GATEWAY',
    });
  });

  it('when a checkout form is submitted twice, then the gateway charges once and the second submit changes nothing', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const [a, b] = await Promise.all([
      submitCheckout(started.paymentUrl, APPROVE_CARD),
      submitCheckout(started.paymentUrl, APPROVE_CARD),
    ]);
    const callbacks = [a, b].filter((r) => r.callbackUrl);
    const statuses = await Promise.all(callbacks.map((r) => deliverCallback(client, r.callbackUrl!)));
    expect(statuses.filter((r) => r.status === 200).length).toBe(1);
    expect((await ledgerOf(server, order.orderId)).successes).toBe(1);
  });
});

describe('callbacks that must change nothing (0 double charges)', () => {
  async function paidOrderWithCallback() {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body
      .data;
    const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
    return { order, started, callbackUrl: checkout.callbackUrl! };
  }

  it('when the signature is forged, then it is a 400 and the order stays PENDING with its attempt open', async () => {
    const { order, callbackUrl } = await paidOrderWithCallback();
    const before = await ledgerOf(server, order.orderId);
    const forged = new URL(callbackUrl);
    forged.searchParams.set('signature', 'a'.repeat(64));
    const response = await deliverCallback(client, forged);
    expectStatus(response, 400);
    expect(response.body.message).toBe('Invalid payment callback');
    expect(await ledgerOf(server, order.orderId)).toEqual(before);
    expect(before.orderStatus).toBe('PENDING');
  });

  it('when the amount in the payload is tampered with, then it is a 400 and nothing changes, whether or not the signature was redone', async () => {
    const { order, started, callbackUrl } = await paidOrderWithCallback();
    const before = await ledgerOf(server, order.orderId);
    const payload = JSON.parse(Buffer.from(callbackUrl.searchParams.get('payload')!, 'base64url').toString());
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('payload', Buffer.from(JSON.stringify({ ...payload, amount: 1 })).toString('base64url'));
    expectStatus(await deliverCallback(client, tampered), 400);
    // A correctly signed report of a different amount (a gateway bug, or a leaked secret) is refused too.
    const query = signedCallbackQuery(server, 'card_gateway', {
      paymentRef: started.paymentRef,
      status: 'SUCCESS',
      amount: 100,
      currency: 'NPR',
      gatewayTransactionId: 'CG-TAMPER',
      issuedAt: new Date(),
    });
    expectStatus(await client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, { query }), 400);
    const otherCurrency = signedCallbackQuery(server, 'card_gateway', {
      paymentRef: started.paymentRef,
      status: 'SUCCESS',
      amount: 450000,
      currency: 'USD',
      gatewayTransactionId: 'CG-TAMPER2',
      issuedAt: new Date(),
    });
    expectStatus(await client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, { query: otherCurrency }), 400);
    expect(await ledgerOf(server, order.orderId)).toEqual(before);
  });

  it('when a success callback is replayed, then the replay is a 400 and the order stays PAID once', async () => {
    const { order, callbackUrl } = await paidOrderWithCallback();
    expectStatus(await deliverCallback(client, callbackUrl), 303);
    const after = await ledgerOf(server, order.orderId);
    const replays = await Promise.all(Array.from({ length: 5 }, () => deliverCallback(client, callbackUrl)));
    expect(replays.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect(await ledgerOf(server, order.orderId)).toEqual(after);
    expect(after.successes).toBe(1);
  });

  it('when the callback is stale, signed by the other gateway, or for an unknown reference, then it is a 400', async () => {
    const { order, started } = await paidOrderWithCallback();
    const before = await ledgerOf(server, order.orderId);
    const report = {
      paymentRef: started.paymentRef,
      status: 'SUCCESS' as const,
      amount: 450000,
      currency: 'NPR',
      gatewayTransactionId: 'CG-X1',
      issuedAt: new Date(),
    };
    const stale = signedCallbackQuery(server, 'card_gateway', {
      ...report,
      issuedAt: new Date(Date.now() - 2 * 3600_000),
    });
    const otherGateway = signedCallbackQuery(server, 'wallet_gateway', report);
    const unknown = signedCallbackQuery(server, 'card_gateway', { ...report, paymentRef: `${order.orderRef}-1` });
    for (const query of [stale, otherGateway, unknown]) {
      expectStatus(await client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, { query }), 400);
    }
    expect(await ledgerOf(server, order.orderId)).toEqual(before);
  });

  it('when a superseded wallet attempt (a gateway that cannot void) succeeds after the order was paid by the newer one, then it is owed back (REFUND_PENDING), never a second PAID', async () => {
    const order = await placeOrder(server, client, agency);
    const old = (await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' })).body.data;
    const current = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    await deliverCallback(client, (await submitCheckout(current.paymentUrl, APPROVE_CARD)).callbackUrl!);
    const paid = await ledgerOf(server, order.orderId);
    // The customer had also paid in the old tab: the wallet's payment page stays payable after our close.
    const late = await submitCheckout(old.paymentUrl, APPROVE_WALLET);
    expectStatus(late, 303);
    expectStatus(await deliverCallback(client, late.callbackUrl!), 200);
    const after = await ledgerOf(server, order.orderId);
    expect(after.orderStatus).toBe('PAID');
    expect(after.paidAt).toBe(paid.paidAt);
    expect(after.successes).toBe(1);
    expect(after.attempts[0]).toMatchObject({
      status: 'REFUND_PENDING',
      refundAmount: 450000,
      closedReason: 'SUPERSEDED',
    });
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      paymentStatus: 'SUCCESS',
      paymentRef: current.paymentRef,
    });
    expect((await paymentStatus(client, agency, old.paymentRef)).body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: current.paymentRef,
    });
  });

  it('when a superseded wallet attempt succeeds while the order is still pending at the same total, then that payment pays the order (never lost) and the open attempt closes', async () => {
    const order = await placeOrder(server, client, agency);
    const old = (await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' })).body.data;
    const current = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const late = await submitCheckout(old.paymentUrl, APPROVE_WALLET);
    expectStatus(await deliverCallback(client, late.callbackUrl!), 200);
    const ledger = await ledgerOf(server, order.orderId);
    expect(ledger.orderStatus).toBe('PAID');
    expect(ledger.attempts.map((a) => [a.status, a.refundAmount])).toEqual([
      ['SUCCESS', 0],
      ['CANCELLED', 0],
    ]);
    expectStatus(await fetch(current.paymentUrl), 410);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      paymentStatus: 'SUCCESS',
      paymentRef: old.paymentRef,
    });
  });

  it('when the card gateway voided a superseded attempt, then a capture report for it is refused and changes nothing', async () => {
    const order = await placeOrder(server, client, agency);
    const old = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
    expectStatus(await submitCheckout(old.paymentUrl, APPROVE_CARD), 410);
    const before = await ledgerOf(server, order.orderId);
    expect(before.attempts[0]).toMatchObject({ status: 'CANCELLED', closedReason: 'SUPERSEDED' });
    const forged = signedCallbackQuery(server, 'card_gateway', {
      paymentRef: old.paymentRef,
      status: 'SUCCESS',
      amount: 450000,
      currency: 'NPR',
      gatewayTransactionId: 'CG-AFTER-VOID',
      issuedAt: new Date(),
    });
    expectStatus(await client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, { query: forged }), 400);
    expect(await ledgerOf(server, order.orderId)).toEqual(before);
  });
});

describe('POST /orders/groups/{groupRef}/pay', () => {
  it('when a group is paid, then one attempt covers every pending order for their sum, and success pays them all', async () => {
    const group = await placeGroup(server, client, agency, 3);
    await setOrder(at(group.orders, 2, 'the group').orderId, { status: OrderStatus.Cancelled });
    const response = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'wallet_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(response, 200);
    const started = response.body.data;
    expect(started.paymentRef).toMatch(new RegExp(`^${group.groupRef}-\\d{13}$`));
    expect(started.amount).toBe(9000);
    const page = await (await fetch(started.paymentUrl)).text();
    expect(page).toContain(at(group.orders, 0, 'the group').orderRef);
    expect(page).toContain(at(group.orders, 1, 'the group').orderRef);
    const callback = await deliverCallback(
      client,
      (await submitCheckout(started.paymentUrl, APPROVE_WALLET)).callbackUrl!,
    );
    expect(callback.headers.get('location')).toBe(`${RETURN_URL}?paymentRef=${started.paymentRef}`);
    for (const order of group.orders.slice(0, 2)) {
      // Each order reads its own share; the shares add up to the group payment.
      expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
        orderStatus: 'PAID',
        paymentStatus: 'SUCCESS',
        paymentRef: started.paymentRef,
        amount: 4500,
        groupRef: group.groupRef,
        groupAmount: 9000,
      });
    }
    expect((await paymentStatus(client, agency, at(group.orders, 2, 'the group').orderRef)).body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'NOT_INITIATED',
    });
  });

  it("when the group has no pending order, is unknown or is another company's, then 400, 404 and 403", async () => {
    const group = await placeGroup(server, client, agency, 1);
    await setOrder(at(group.orders, 0, 'the group').orderId, { status: OrderStatus.Paid });
    const call = (groupRef: string, partner: TestPartner) =>
      client.op(
        'payGroup',
        'POST',
        groupPayPath(groupRef),
        { gateway: 'card_gateway' },
        { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
      );
    expectStatus(await call(group.groupRef, agency), 400);
    expectStatus(await call('GRP-2026-999999', agency), 404);
    expectStatus(await call(group.groupRef, other), 403);
  });

  it('when a single order of an open group payment is paid on its own, then the group attempt is superseded', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const grouped = (
      await client.op(
        'payGroup',
        'POST',
        groupPayPath(group.groupRef),
        { gateway: 'card_gateway' },
        { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
      )
    ).body.data;
    await pay(client, agency, at(group.orders, 0, 'the group').orderRef, { gateway: 'card_gateway' });
    expectStatus(await fetch(grouped.paymentUrl), 410);
  });
});

describe('GET /orders/{orderRef} with payment identifiers', () => {
  it('resolves an order number and a payment reference to the order', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    for (const identifier of [order.orderNumber, started.paymentRef]) {
      const response = await client.op('getOrder', 'GET', `${ORDERS}/${identifier}`, undefined, {
        token: agency.token,
      });
      expectStatus(response, 200);
      expect(response.body.data.orderRef).toBe(order.orderRef);
    }
  });
});

describe('orders the operator settled in cash or cancelled (ops order record-cash, ops order cancel)', () => {
  const OPERATOR = 'operator-cli:test';

  it('when the operator recorded the cash of a CASH order, then getOrder reads PAID, payment-status reports a SUCCESS CASH payment for the total, and pay is a 400', async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    const { attempt } = await recordCashPayment(server.orm.em.fork(), order.orderRef, { amount: 450_000 }, OPERATOR);

    const read = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, { token: agency.token });
    expectStatus(read, 200);
    expect(read.body.data).toMatchObject({
      status: 'PAID',
      settlementType: 'CASH',
      paidAt: attempt.completedAt!.toISOString(),
    });
    for (const identifier of [order.orderRef, order.orderNumber, attempt.paymentRef]) {
      const status = await paymentStatus(client, agency, identifier);
      expectStatus(status, 200);
      expect(status.body.data).toEqual({
        orderRef: order.orderRef,
        orderStatus: 'PAID',
        paymentStatus: 'SUCCESS',
        paymentRef: attempt.paymentRef,
        paymentMethod: 'CASH',
        amount: 4500,
        currency: 'NPR',
        completedAt: attempt.completedAt!.toISOString(),
        // Issued in the transaction that recorded the cash.
        policyNumber: expect.stringMatching(/^SBX-POL-\d{4}-\d{6,}$/),
      });
    }
    const payAgain = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
    expectStatus(payAgain, 400);
    expect(payAgain.body.message).toBe(`Order ${order.orderRef} is already PAID and cannot be paid again`);
    expect(await attemptCount(order.orderId)).toBe(1);
  });

  it('when a gateway page or callback names a cash payment, then it is unknown to the gateway and nothing changes', async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    const { attempt } = await recordCashPayment(server.orm.em.fork(), order.orderRef, { amount: 450_000 }, OPERATOR);
    expectStatus(await fetch(`${server.url}/sandbox/card_gateway/checkout/${attempt.paymentRef}`), 404);
    const signed = signedCallbackQuery(server, 'card_gateway', {
      paymentRef: attempt.paymentRef,
      status: 'SUCCESS',
      amount: 450_000,
      currency: 'NPR',
      gatewayTransactionId: `txn-${randomUUID()}`,
      issuedAt: new Date(),
    });
    expectStatus(
      await client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, { query: signed, direct: true }),
      400,
    );
    expectStatus(
      await client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, {
        query: { ...signed, gateway: 'cash' },
        direct: true,
      }),
      400,
    );
    const after = await server.orm.em.fork().findOneOrFail(PaymentAttempt, attempt.id);
    expect(after).toMatchObject({ status: 'SUCCESS', gateway: 'cash', refundAmount: 0 });
    expect(after.gatewayTransactionId ?? null).toBeNull();
  });

  it('when the operator cancelled a pending order, then getOrder reads CANCELLED, payment-status the lean NOT_INITIATED shape, and pay is a 400', async () => {
    const order = await placeOrder(server, client, agency);
    await cancelFromCommandLine(server.orm.em.fork(), order.orderNumber, OPERATOR, server.payments);
    const read = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, { token: agency.token });
    expectStatus(read, 200);
    expect(read.body.data).toMatchObject({ status: 'CANCELLED', paidAt: null });
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toEqual({
      orderRef: order.orderRef,
      orderStatus: 'CANCELLED',
      paymentStatus: 'NOT_INITIATED',
    });
    const payAgain = await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' });
    expectStatus(payAgain, 400);
    expect(payAgain.body.message).toBe(`Order ${order.orderRef} is already CANCELLED and cannot be paid again`);
    expect(await attemptCount(order.orderId)).toBe(0);
  });

  it('when an order of a group is cancelled, then the group payment that covered it closes and a new group pay covers only the pending orders', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const first = (
      await client.op(
        'payGroup',
        'POST',
        groupPayPath(group.groupRef),
        { gateway: 'card_gateway' },
        { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
      )
    ).body.data;
    const cancelled = await cancelFromCommandLine(
      server.orm.em.fork(),
      at(group.orders, 0, 'the group').orderRef,
      OPERATOR,
      server.payments,
    );
    expect(cancelled.closedPaymentRefs).toEqual([first.paymentRef]);
    expectStatus(await fetch(first.paymentUrl), 410);
    const second = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'card_gateway' },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(second, 200);
    expect(second.body.data.amount).toBe(at(group.orders, 1, 'the group').totalAmount);
  });
});
