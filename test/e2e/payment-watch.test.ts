import { randomUUID } from 'node:crypto';
import { setEndpoint } from '../../src/modules/webhooks/endpoints';
import { until } from '../support/eventually';
import { everestQuote, orderFromQuote, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, paymentStatus, RETURN_URL } from '../support/payment-fixtures';
import { deliverReturn, esewaCheckout, khaltiCheckout } from '../support/provider-browser';
import { newTraveller } from '../support/traveller-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Payments decided late or taken back, end to end: a partner orders and pays through the API,
 * the customer goes through the providers' simulated pages (card_gateway -> Khalti, wallet_gateway
 * -> eSewa), the server's own reconciliation job (the payment watch, every second here, through
 * the job queue) asks the providers, and the partner learns the outcome from payment-status and
 * from signed webhooks on its endpoint. Days pass by moving the payment's times back in the
 * database (the clock, not the calendar).
 */
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;
let partner: TestPartner;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const { server, client } = useTestServer({
  ownDatabase: 'watch_e2e',
  // Background jobs on: the payment watch, the refund executor and the webhook deliveries are what the story is about.
  backgroundJobs: true,
  env: () => ({
    ...simulatedProvidersEnv(khalti, esewa),
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '1',
    RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
    WEBHOOK_RETRY_DELAY_SECONDS: '1',
    WEBHOOK_RETRY_DELAY_MAX_SECONDS: '2',
  }),
});
beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Annapurna Base Camp Treks Pvt. Ltd.' });
  const endpoint = await setEndpoint(server.orm.em.fork(), partner.companyId, await receiver.start(), {
    allowLocalEndpoints: true,
  });
  receiver.secret = endpoint.secret ?? '';
});
afterAll(() => Promise.all([khalti?.stop(), esewa?.stop(), receiver.stop()]));

/** A quoted order for a new traveller, placed through the API. */
async function placeQuotedOrder(): Promise<{ orderRef: string; totalAmount: number }> {
  const quote = await everestQuote(client, partner);
  const touristId = await newTraveller(server, partner.companyId);
  const created = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(quote, touristId), {
    token: partner.token,
  });
  expectStatus(created, 201);
  return { orderRef: created.body.data.orderRef, totalAmount: quote.totalAmount };
}

async function startPay(orderRef: string, gateway: 'card_gateway' | 'wallet_gateway') {
  const response = await pay(client, partner, orderRef, { gateway, returnUrl: RETURN_URL }, randomUUID());
  expectStatus(response, 200);
  return response.body.data as { paymentRef: string; paymentUrl: string };
}

async function statusOf(orderRef: string) {
  const response = await paymentStatus(client, partner, orderRef);
  expectStatus(response, 200);
  return response.body.data;
}

/** Moves a payment's times `days` into the past and makes it due for the watch now. */
async function daysPass(paymentRef: string, days: number): Promise<void> {
  await server.orm.em
    .fork()
    .getConnection()
    .execute(
      `update payment_attempt set created_at = created_at - make_interval(days => ?), expires_at = expires_at - make_interval(days => ?),
       completed_at = completed_at - make_interval(days => ?), next_check_at = now() where payment_ref = ?`,
      [days, days, days, paymentRef],
    );
}

const eventFor = (type: string, orderRef: string) =>
  receiver.unique(type).find((event) => event.data.orderRef === orderRef);

describe('payments decided late or taken back, end to end', () => {
  it('a capture 3 days late still settled: Khalti leaves the payment Pending, the checkout closes, Khalti completes it 3 days later, and the order ends PAID with order.paid', async () => {
    const { orderRef, totalAmount } = await placeQuotedOrder();
    const started = await startPay(orderRef, 'card_gateway');
    const back = await khaltiCheckout(started.paymentUrl, { action: 'pay', mobile: '9800000005' });
    expect(back.searchParams.get('status')).toBe('Pending');
    expectStatus(await deliverReturn(client, back), 303);
    expect(await statusOf(orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'INITIATED' });

    // The checkout's time runs out: the watch closes the attempt, undecided at Khalti.
    await daysPass(started.paymentRef, 1);
    await until('the attempt to close', async () => (await statusOf(orderRef)).paymentStatus === 'EXPIRED', {
      timeoutMs: 20_000,
    });

    // Three days on, Khalti has completed it: the watch is still asking, and settles the order.
    khalti.setStatus(khalti.byOrder(started.paymentRef).pidx, 'Completed');
    await daysPass(started.paymentRef, 3);
    await until('the late capture to settle the order', async () => (await statusOf(orderRef)).orderStatus === 'PAID', {
      timeoutMs: 20_000,
    });
    expect(await statusOf(orderRef)).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: started.paymentRef,
      amount: totalAmount,
    });
    await receiver.waitFor(() => !!eventFor('order.paid', orderRef));
    expect(eventFor('order.paid', orderRef)?.data).toMatchObject({ orderRef, paymentRef: started.paymentRef });
    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${orderRef}`, undefined, { token: partner.token });
    expectStatus(detail, 200);
    expect(detail.body.data).toMatchObject({ status: 'PAID', policyNumber: expect.stringMatching(/^SBX-POL-/) });
  });

  it('a provider-side reversal found by the watch: an eSewa payment refunded in full at eSewa two days after it paid cancels the policy (PAYMENT_REVERSED) with refund.succeeded and order.cancelled', async () => {
    const { orderRef, totalAmount } = await placeQuotedOrder();
    const started = await startPay(orderRef, 'wallet_gateway');
    expectStatus(await deliverReturn(client, await esewaCheckout(started.paymentUrl, 'pay')), 303);
    expect(await statusOf(orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });

    esewa.refundAtEsewa(started.paymentRef, 'full');
    await daysPass(started.paymentRef, 2);
    await receiver.waitFor(() => !!eventFor('order.cancelled', orderRef) && !!eventFor('refund.succeeded', orderRef));
    const refund = eventFor('refund.succeeded', orderRef)?.data;
    expect(refund).toMatchObject({
      orderRef,
      paymentRef: started.paymentRef,
      amount: totalAmount,
      status: 'SUCCEEDED',
      cause: 'PROVIDER_REVERSAL',
      gateway: 'WALLET_GATEWAY',
    });
    expect(eventFor('order.cancelled', orderRef)?.data).toMatchObject({
      orderRef,
      orderStatus: 'CANCELLED',
      reason: 'PAYMENT_REVERSED',
      refund: expect.objectContaining({ refundRef: refund?.refundRef, amount: totalAmount }),
    });
    expect(await statusOf(orderRef)).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUNDED',
      paymentRef: started.paymentRef,
    });
    // The order detail says why and with which refund; its policy number stays with it.
    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${orderRef}`, undefined, { token: partner.token });
    expectStatus(detail, 200);
    expect(detail.body.data).toMatchObject({
      status: 'CANCELLED',
      policyNumber: expect.stringMatching(/^SBX-POL-/),
      cancellation: {
        reason: 'PAYMENT_REVERSED',
        refund: expect.objectContaining({
          refundRef: refund?.refundRef,
          amount: totalAmount,
          cancellationFee: 0,
          status: 'SUCCEEDED',
        }),
      },
    });
  });

  it('a provider-side reversal found by the watch: a Khalti payment refunded in its portal cancels the policy the same way', async () => {
    const { orderRef, totalAmount } = await placeQuotedOrder();
    const started = await startPay(orderRef, 'card_gateway');
    expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
    expect(await statusOf(orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });

    khalti.refundInPortal(khalti.byOrder(started.paymentRef).pidx, 'full');
    await daysPass(started.paymentRef, 5);
    await receiver.waitFor(() => !!eventFor('order.cancelled', orderRef) && !!eventFor('refund.succeeded', orderRef));
    expect(eventFor('refund.succeeded', orderRef)?.data).toMatchObject({
      amount: totalAmount,
      status: 'SUCCEEDED',
      cause: 'PROVIDER_REVERSAL',
      gateway: 'CARD_GATEWAY',
    });
    expect(eventFor('order.cancelled', orderRef)?.data).toMatchObject({ reason: 'PAYMENT_REVERSED' });
    expect(await statusOf(orderRef)).toMatchObject({ orderStatus: 'CANCELLED' });
  });
});
