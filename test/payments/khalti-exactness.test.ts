import { randomUUID } from 'node:crypto';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { watchDueAttempts } from '../../src/modules/payments/payment-watch';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, paymentStatus, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { deliverReturn, khaltiCheckout } from '../support/provider-browser';
import { KHALTI_TEST, startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Khalti as its documents describe it, unkind parts included (issue 36, items 1, 7 and 15):
 * bank-funded refunds need the customer's Khalti mobile, a partial refund is spelt two ways, the
 * lookup's `refunded` flag, 400 lookups for Expired and User canceled, a link that expires.
 */
let partner: TestPartner;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const { server, client } = useTestServer({
  ownDatabase: 'khalti_exact',
  env: () => ({
    ...simulatedProvidersEnv(khalti, esewa),
    PAYMENT_PROVIDER_TIMEOUT_MS: '2000',
    PAYMENT_RECONCILE_AFTER_SECONDS: '0',
    RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
    REFUND_INTERVAL_SECONDS: '0',
  }),
});
beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Exact Khalti Treks Pvt. Ltd.' });
  server.payments.kickRefunds = undefined;
});
afterAll(() => Promise.all([khalti?.stop(), esewa?.stop()]));
afterEach(() => {
  khalti.partialSpelling = 'Partially refunded';
});

const payer = KHALTI_TEST.ids[1]!;
const cancel = (orderRef: string) =>
  client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${encodeURIComponent(orderRef)}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
  );
const refundOf = (orderRef: string) => server.orm.em.fork().findOneOrFail(Refund, { order: { orderRef } });

async function paidOnKhalti(orderRef: string, body: Record<string, unknown>, via: 'wallet' | 'ebanking') {
  const response = await pay(client, partner, orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL, ...body });
  expectStatus(response, 200);
  expectStatus(
    await deliverReturn(
      client,
      await khaltiCheckout(response.body.data.paymentUrl, { action: 'pay', mobile: payer, via }),
    ),
    303,
  );
  return {
    paymentRef: response.body.data.paymentRef as string,
    simulated: khalti.byOrder(response.body.data.paymentRef),
  };
}

describe('the pay request takes the customer’s mobile', () => {
  it('when customerMobile is a Nepali mobile number, then it is passed to Khalti as the customer’s phone and kept with the attempt', async () => {
    const order = await placeOrder(server, client, partner);
    const { paymentRef, simulated } = await paidOnKhalti(order.orderRef, { customerMobile: payer }, 'wallet');
    expect(simulated.customerPhone).toBe(payer);
    expect(await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef })).toMatchObject({
      customerMobile: payer,
      provider: 'khalti',
    });
  });

  it('when a pay request is retried with its Idempotency-Key and another customerMobile, then it is a 409, and with the same one the same attempt', async () => {
    const order = await placeOrder(server, client, partner);
    const key = randomUUID();
    const first = await pay(client, partner, order.orderRef, { gateway: 'card_gateway', customerMobile: payer }, key);
    expectStatus(first, 200);
    expect(
      (await pay(client, partner, order.orderRef, { gateway: 'card_gateway', customerMobile: payer }, key)).body.data
        .paymentRef,
    ).toBe(first.body.data.paymentRef);
    expectStatus(
      await pay(client, partner, order.orderRef, { gateway: 'card_gateway', customerMobile: '9851234567' }, key),
      409,
    );
  });

  it.each(['+9779801234567', '980123456', '1234567890', '98012345678'])(
    'when customerMobile is %s, then the pay request is refused with a 400 naming the field and no attempt is written',
    async (mobile) => {
      const order = await placeOrder(server, client, partner);
      const response = await pay(client, partner, order.orderRef, { gateway: 'card_gateway', customerMobile: mobile });
      expectStatus(response, 400);
      expect(JSON.stringify(response.body)).toContain('customerMobile');
      expect(await server.orm.em.fork().count(PaymentAttempt, { orders: { order: order.orderId } })).toBe(0);
    },
  );
});

describe('the checkout window', () => {
  it("when a payment starts on Khalti, then the attempt stays open as long as Khalti's 60-minute link takes money, while an eSewa attempt keeps PAYMENT_ATTEMPT_TTL_MINUTES", async () => {
    const onKhalti = await placeOrder(server, client, partner);
    const khaltiStart = await pay(client, partner, onKhalti.orderRef, {
      gateway: 'card_gateway',
      returnUrl: RETURN_URL,
    });
    const link = khalti.byOrder(khaltiStart.body.data.paymentRef);
    const attempt = await server.orm.em
      .fork()
      .findOneOrFail(PaymentAttempt, { paymentRef: khaltiStart.body.data.paymentRef });
    expect(new Date(khaltiStart.body.data.expiresAt).getTime()).toBe(attempt.expiresAt.getTime());
    expect(attempt.expiresAt.getTime()).toBeGreaterThanOrEqual(link.expiresAt);
    expect(attempt.expiresAt.getTime() - attempt.createdAt.getTime()).toBeGreaterThanOrEqual(60 * 60_000);

    const onEsewa = await placeOrder(server, client, partner);
    const esewaStart = await pay(client, partner, onEsewa.orderRef, {
      gateway: 'wallet_gateway',
      returnUrl: RETURN_URL,
    });
    const esewaAttempt = await server.orm.em
      .fork()
      .findOneOrFail(PaymentAttempt, { paymentRef: esewaStart.body.data.paymentRef });
    expect(esewaAttempt.expiresAt.getTime() - esewaAttempt.createdAt.getTime()).toBe(15 * 60_000);
  });
});

describe('Khalti refunds of bank-funded payments', () => {
  it('when a bank-funded payment came with customerMobile, then its refund sends that mobile and succeeds', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef, { customerMobile: payer }, 'ebanking');
    expectStatus(await cancel(order.orderRef), 200);
    await server.refunds.runOnce();
    expect(await refundOf(order.orderRef)).toMatchObject({ status: 'SUCCEEDED', provider: 'khalti' });
    expect(simulated).toMatchObject({ status: 'Refunded', refunded: simulated.amount });
  });

  it('when a bank-funded payment came without customerMobile, then its refund is MANUAL with that reason, never FAILED, and no refund is asked of Khalti', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef, {}, 'ebanking');
    const callsBefore = khalti.refunds.calls;
    expectStatus(await cancel(order.orderRef), 200);
    await server.refunds.runOnce();
    const refund = await refundOf(order.orderRef);
    expect(refund.status).toBe('MANUAL');
    expect(refund.lastError).toMatch(/customerMobile/);
    expect(khalti.refunds.calls).toBe(callsBefore);
    expect(simulated.status).toBe('Completed');
  });

  it("when the pay request's customerMobile is not the payer's Khalti account, then Khalti refuses the bank refund to it and the refund is MANUAL with that reason, never FAILED", async () => {
    const order = await placeOrder(server, client, partner);
    const notThePayer = '9851234567';
    const { simulated } = await paidOnKhalti(order.orderRef, { customerMobile: notThePayer }, 'ebanking');
    const callsBefore = khalti.refunds.calls;
    expectStatus(await cancel(order.orderRef), 200);
    await server.refunds.runOnce();
    const refund = await refundOf(order.orderRef);
    expect(refund.status).toBe('MANUAL');
    expect(refund.lastError).toMatch(/customerMobile .*not the payer's Khalti account/);
    expect(refund.lastError).toMatch(/Mobile number is not associated with this transaction/);
    expect(khalti.refunds.calls).toBe(callsBefore + 1);
    expect(simulated).toMatchObject({ status: 'Completed', refunded: 0 });
  });

  it("when Khalti is asked to refund a bank-funded payment to a mobile that is not the payer's, then it refuses as its refund API does", async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef, {}, 'ebanking');
    const refund = await fetch(`${khalti.url}/api/merchant-transaction/${simulated.transactionId}/refund/`, {
      method: 'POST',
      headers: { Authorization: `Key ${khalti.secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ mobile: '9851234567' }),
    });
    expectStatus(refund, 400);
    expect(await refund.json()).toEqual({
      mobile: ['Mobile number is not associated with this transaction.'],
      error_key: 'validation_error',
    });
  });

  it('when Khalti is asked to refund a bank-funded payment without a mobile, then it refuses as its refund API does', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef, {}, 'ebanking');
    const refund = await fetch(`${khalti.url}/api/merchant-transaction/${simulated.transactionId}/refund/`, {
      method: 'POST',
      headers: { Authorization: `Key ${khalti.secretKey}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expectStatus(refund, 400);
    expect(await refund.json()).toEqual({ mobile: ['This field is required.'], error_key: 'validation_error' });
  });

  it('when a wallet payment came without customerMobile, then its refund needs no mobile and succeeds', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef, {}, 'wallet');
    await cancel(order.orderRef);
    await server.refunds.runOnce();
    expect((await refundOf(order.orderRef)).status).toBe('SUCCEEDED');
    expect(simulated.status).toBe('Refunded');
  });
});

describe('Khalti lookups as Khalti answers them', () => {
  const lookup = (pidx: string) =>
    fetch(`${khalti.apiBase}/epayment/lookup/`, {
      method: 'POST',
      headers: { Authorization: `Key ${khalti.secretKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ pidx }),
    });

  it('when the customer cancels or the 60-minute link runs out, then the lookup answers HTTP 400 with the status, and payment-status reads CANCELLED or EXPIRED', async () => {
    const cancelled = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, cancelled.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }))
      .body.data;
    expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'cancel' })), 303);
    const answer = await lookup(khalti.byOrder(started.paymentRef).pidx);
    expectStatus(answer, 400);
    expect(await answer.json()).toMatchObject({ status: 'User canceled' });
    expect((await paymentStatus(client, partner, cancelled.orderRef)).body.data).toMatchObject({
      paymentStatus: 'CANCELLED',
    });

    const expired = await placeOrder(server, client, partner);
    const open = (await pay(client, partner, expired.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body
      .data;
    const simulated = khalti.byOrder(open.paymentRef);
    const initiated = await (await lookup(simulated.pidx)).json();
    expect(initiated).toMatchObject({ status: 'Initiated', transaction_id: null, refunded: false });
    khalti.expireLink(simulated.pidx);
    const late = await lookup(simulated.pidx);
    expectStatus(late, 400);
    expect(await late.json()).toMatchObject({ status: 'Expired' });
    expectStatus(await fetch(open.paymentUrl), 410);
    expect((await paymentStatus(client, partner, expired.orderRef)).body.data).toMatchObject({
      paymentStatus: 'EXPIRED',
    });
  });

  it('when Khalti reports a payment Failed ("Canceled, Expired, Failed must be treated as failed"), then the attempt is FAILED, the order unpaid, and the watch stops asking', async () => {
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }))
      .body.data;
    expectStatus(
      await deliverReturn(
        client,
        await khaltiCheckout(started.paymentUrl, { action: 'pay', mobile: KHALTI_TEST.pendingId }),
      ),
      303,
    );
    const simulated = khalti.byOrder(started.paymentRef);
    khalti.setStatus(simulated.pidx, 'Failed');
    await watchDueAttempts(server.orm.em.fork(), server.payments, new Date(Date.now() + 60_000));
    expect(await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef })).toMatchObject({
      status: 'FAILED',
      failureReason: 'FAILED_AT_PROVIDER',
      gatewayConfirmedAt: expect.any(Date),
      nextCheckAt: null,
    });
    expect((await paymentStatus(client, partner, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'FAILED',
    });
  });

  it('when a payment is Pending, then the lookup gives no transaction_id yet', async () => {
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }))
      .body.data;
    await khaltiCheckout(started.paymentUrl, { action: 'pay', mobile: KHALTI_TEST.pendingId });
    expect(await (await lookup(khalti.byOrder(started.paymentRef).pidx)).json()).toMatchObject({
      status: 'Pending',
      transaction_id: null,
    });
  });

  it.each(['Partially refunded', 'Partially Refunded'] as const)(
    'when a refund in Khalti’s portal gives back part of a paid payment, spelt "%s", then the lookup says refunded and the payment watch records the partial reversal',
    async (spelling) => {
      khalti.partialSpelling = spelling;
      const order = await placeOrder(server, client, partner);
      const { paymentRef, simulated } = await paidOnKhalti(order.orderRef, {}, 'wallet');
      khalti.refundInPortal(simulated.pidx, 'partial');
      expect(await (await lookup(simulated.pidx)).json()).toMatchObject({ status: spelling, refunded: true });
      const paidAt = (await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef })).completedAt!;
      expect(
        await watchDueAttempts(server.orm.em.fork(), server.payments, new Date(paidAt.getTime() + 2 * 3_600_000)),
      ).toMatchObject({ PARTIALLY_REVERSED: 1 });
      expect(await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef })).toMatchObject({
        providerReversal: 'PARTIAL',
      });
    },
  );
});
