import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { everestQuote, orderFromQuote, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  groupPayPath,
  ledgerOf,
  pay,
  paymentStatus,
  placeGroup,
  placeOrder,
  RETURN_URL,
} from '../support/payment-fixtures';
import { deliverReturn, esewaCheckout, esewaFormOf, khaltiCheckout } from '../support/provider-browser';
import { newTraveller } from '../support/traveller-fixtures';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * The whole partner flow through each live provider's simulator (card_gateway -> Khalti,
 * wallet_gateway -> eSewa), every failure state of the issue, and the invariant checker on this
 * file's own database at the end.
 */
const TIMEOUT_MS = 400;
const run = promisify(execFile);

let partner: TestPartner;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const { server, client, databaseUrl } = useTestServer({
  ownDatabase: 'providers',
  env: () => ({
    ...simulatedProvidersEnv(khalti, esewa),
    PAYMENT_PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
    // payment-status asks the provider about every open attempt at once, and again on each call.
    PAYMENT_RECONCILE_AFTER_SECONDS: '0',
    PAYMENT_STATUS_LOOKUP_SECONDS: '0',
    // This file's many returns come from one address; provider-returns.test.ts tests the limit.
    RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
  }),
});
beforeAll(async () => {
  partner = await newPartner(server, client);
});
afterAll(() => Promise.all([khalti?.stop(), esewa?.stop()]));
afterEach(() => {
  khalti.health = 'up';
  esewa.health = 'up';
  esewa.numericAmounts = false;
});

const status = async (ref: string) => {
  const response = await paymentStatus(client, partner, ref);
  expectStatus(response, 200);
  return response.body.data;
};
const startPay = async (orderRef: string, gateway: 'card_gateway' | 'wallet_gateway', key = randomUUID()) => {
  const response = await pay(client, partner, orderRef, { gateway, returnUrl: RETURN_URL }, key);
  expectStatus(response, 200);
  return response.body.data;
};
const attemptOf = (paymentRef: string) => server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef });

describe('card_gateway served by Khalti ePayment', () => {
  it('when a quoted order is paid on Khalti and the customer comes back, then payment-status reads SUCCESS beside PAID, confirmed by the lookup in paisa', async () => {
    const quote = await everestQuote(client, partner);
    const touristId = await newTraveller(server, partner.companyId);
    const created = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(quote, touristId), {
      token: partner.token,
    });
    expectStatus(created, 201);
    const orderRef = created.body.data.orderRef;
    const key = randomUUID();
    const started = await startPay(orderRef, 'card_gateway', key);
    const simulated = khalti.byOrder(started.paymentRef);
    expect(started.paymentUrl).toBe(`${khalti.url}/?pidx=${simulated.pidx}`);
    expect(simulated.amount).toBe(Math.round(quote.totalAmount * 100));
    // A retry with the same key answers the same page without a second initiation.
    expect((await startPay(orderRef, 'card_gateway', key)).paymentUrl).toBe(started.paymentUrl);
    expect([...khalti.payments.values()].filter((p) => p.purchaseOrderId === started.paymentRef)).toHaveLength(1);

    const back = await khaltiCheckout(started.paymentUrl, { action: 'pay' });
    expect(back.pathname).toBe(`/api/external/payment/response/card_gateway/${started.paymentRef}`);
    const answer = await deliverReturn(client, back);
    expectStatus(answer, 303);
    expect(answer.headers.get('location')).toBe(`${RETURN_URL}?paymentRef=${started.paymentRef}`);
    expect(await status(orderRef)).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentMethod: 'CARD_GATEWAY',
      amount: quote.totalAmount,
    });
    expect((await attemptOf(started.paymentRef)).gatewayTransactionId).toBe(simulated.transactionId);
    // The customer reloads the return page: the lookup says the same, nothing changes, no error.
    expectStatus(await deliverReturn(client, back), 303);
  });

  it('when a group is paid on Khalti, then one Khalti payment for the group total pays every order', async () => {
    const group = await placeGroup(server, client, partner, 2);
    const response = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(response, 200);
    expect(khalti.byOrder(response.body.data.paymentRef).amount).toBe(900000);
    expectStatus(
      await deliverReturn(client, await khaltiCheckout(response.body.data.paymentUrl, { action: 'pay' })),
      303,
    );
    for (const order of group.orders)
      expect(await status(order.orderRef)).toMatchObject({
        orderStatus: 'PAID',
        paymentStatus: 'SUCCESS',
        amount: 4500,
        groupAmount: 9000,
      });
  });

  it('when the customer cancels on Khalti, then the attempt ends CANCELLED and the order stays PENDING', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'cancel' })), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'CANCELLED' });
  });

  it('when Khalti says Pending on return, then nothing is decided; once it completes, payment-status finds it (reconciliation)', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    const back = await khaltiCheckout(started.paymentUrl, { action: 'pay', mobile: '9800000005' });
    expect(back.searchParams.get('status')).toBe('Pending');
    expectStatus(await deliverReturn(client, back), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'INITIATED' });
    khalti.setStatus(khalti.byOrder(started.paymentRef).pidx, 'Completed');
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });

  it('when Khalti lets the checkout expire, then payment-status reads EXPIRED and a new payment can start', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    khalti.setStatus(khalti.byOrder(started.paymentRef).pidx, 'Expired');
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'EXPIRED' });
    expect((await startPay(order.orderRef, 'card_gateway')).paymentRef).not.toBe(started.paymentRef);
  });

  it('when Khalti reports the payment Refunded before we heard of it, then the order stays unpaid and the attempt reads FAILED', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    await khaltiCheckout(started.paymentUrl, { action: 'pay' }); // the customer never comes back
    khalti.setStatus(khalti.byOrder(started.paymentRef).pidx, 'Refunded');
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'FAILED' });
    expect((await attemptOf(started.paymentRef)).failureReason).toBe('REFUNDED_BY_PROVIDER');
  });

  it('when a return carries another amount, another pidx or another reference, then it is refused and changes nothing', async () => {
    const order = await placeOrder(server, client, partner);
    const other = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    const otherStarted = await startPay(other.orderRef, 'card_gateway');
    const back = await khaltiCheckout(started.paymentUrl, { action: 'pay' });
    const forged = (changes: Record<string, string>, pathRef = started.paymentRef) => {
      const url = new URL(back);
      url.pathname = `/api/external/payment/response/card_gateway/${pathRef}`;
      for (const [name, value] of Object.entries(changes)) url.searchParams.set(name, value);
      return url;
    };
    const refusals = [
      forged({ amount: '100', total_amount: '100' }),
      forged({ pidx: khalti.byOrder(otherStarted.paymentRef).pidx }),
      forged({}, otherStarted.paymentRef),
      forged({ purchase_order_id: otherStarted.paymentRef }),
    ];
    for (const url of refusals) {
      const answer = await deliverReturn(client, url);
      expectStatus(answer, 400);
      expect(answer.body).toContain('Payment not confirmed');
    }
    expect((await attemptOf(started.paymentRef)).status).toBe('INITIATED');
    expect((await attemptOf(otherStarted.paymentRef)).status).toBe('INITIATED');
    // Khalti's ledger says another amount than ours: never settled, left to an operator.
    khalti.byOrder(otherStarted.paymentRef).amount = 100;
    khalti.setStatus(khalti.byOrder(otherStarted.paymentRef).pidx, 'Completed');
    expect(await status(other.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'INITIATED' });
    // The genuine return still settles the first payment.
    expectStatus(await deliverReturn(client, back), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });

  it('when Khalti is slow, down or failing, then pay answers 503/502 within the timeout in shape 2, and the same key succeeds once it is back, without a restart', async () => {
    const order = await placeOrder(server, client, partner);
    const key = randomUUID();
    for (const [health, expected] of [
      ['slow', 503],
      ['down', 503],
      ['error', 502],
    ] as const) {
      khalti.health = health;
      const heldBefore = khalti.unanswered;
      const answer = await pay(
        client,
        partner,
        order.orderRef,
        { gateway: 'card_gateway', returnUrl: RETURN_URL },
        key,
      );
      expectStatus(answer, expected);
      expect(answer.body).toMatchObject({ status: expected, path: `/api/external/v1/orders/${order.orderRef}/pay` });
      expect(JSON.stringify(answer.body)).not.toMatch(/khalti|127\.0\.0\.1|secret|at \w+ \(/i);
      // Slow: the answer came while Khalti still held the call, so the service's timeout ended the wait.
      if (health === 'slow') expect(khalti.unanswered).toBeGreaterThan(heldBefore);
    }
    // payment-status still answers (the stored state) while Khalti is slow.
    khalti.health = 'slow';
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'INITIATED' });
    khalti.health = 'up';
    const recovered = await startPay(order.orderRef, 'card_gateway', key);
    expect(recovered.paymentUrl).toBe(`${khalti.url}/?pidx=${khalti.byOrder(recovered.paymentRef).pidx}`);
    await deliverReturn(client, await khaltiCheckout(recovered.paymentUrl, { action: 'pay' }));
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });
});

describe('wallet_gateway served by eSewa ePay v2', () => {
  it('when an order is paid on eSewa, then our page posts a signed form (button, and a script allowed by its hash) and the signed, status-checked return makes it PAID', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const form = await esewaFormOf(started.paymentUrl);
    expectStatus(form, 200);
    expect(form.action).toBe(esewa.formUrl);
    expect(form.fields).toMatchObject({
      total_amount: '4500.00',
      transaction_uuid: started.paymentRef,
      product_code: esewa.productCode,
      signed_field_names: 'total_amount,transaction_uuid,product_code',
    });
    expect(form.html).toContain('<button type="submit">');
    const hash = /script-src '(sha256-[^']+)'/.exec(form.csp ?? '')?.[1];
    const script = /<script>([^<]*)<\/script>/.exec(form.html)?.[1] ?? '';
    expect(hash).toBe(`sha256-${createHash('sha256').update(script).digest('base64')}`);
    // Without the link's token the page hands out no signed form.
    const tokenless = new URL(started.paymentUrl);
    tokenless.searchParams.delete('t');
    expectStatus(await fetch(tokenless), 404);

    const back = await esewaCheckout(started.paymentUrl, 'pay');
    expect(back.searchParams.get('data')).toBeTruthy();
    const answer = await deliverReturn(client, back);
    expectStatus(answer, 303);
    expect(await status(order.orderRef)).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentMethod: 'WALLET_GATEWAY',
      amount: 4500,
    });
    expect((await attemptOf(started.paymentRef)).gatewayTransactionId).toBe(esewa.byUuid(started.paymentRef).refId);
    // The attempt is closed: the page no longer hands out the form.
    expectStatus(await esewaFormOf(started.paymentUrl), 410);
  });

  it('when eSewa writes total_amount as a JSON number (4500.0, as its documentation shows), then the signature over the text it sent verifies and the order is PAID', async () => {
    esewa.numericAmounts = true;
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const back = await esewaCheckout(started.paymentUrl, 'pay');
    expect(Buffer.from(back.searchParams.get('data') ?? '', 'base64').toString('utf8')).toContain(
      '"total_amount":4500.0,',
    );
    expectStatus(await deliverReturn(client, back), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS', amount: 4500 });
  });

  it('when the customer cancels on eSewa, then the failure return (with nothing signed) is settled by the status check: CANCELLED', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const back = await esewaCheckout(started.paymentUrl, 'cancel');
    expect(back.search).toBe('');
    expectStatus(await deliverReturn(client, back), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'CANCELLED' });
  });

  it('when eSewa is still PENDING, then nothing is decided; once COMPLETE, payment-status finds it', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const form = await esewaFormOf(started.paymentUrl);
    await fetch(form.action!, { method: 'POST', body: new URLSearchParams(form.fields) }); // the customer leaves at the login page
    expect(await status(order.orderRef)).toMatchObject({ paymentStatus: 'INITIATED' });
    Object.assign(esewa.byUuid(started.paymentRef), { status: 'COMPLETE', refId: 'R3C0NC1' });
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });

  it('when the attempt expires undecided, then it reads EXPIRED and our page stops handing out the form', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    await server.orm.em
      .fork()
      .nativeUpdate(PaymentAttempt, { paymentRef: started.paymentRef }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'EXPIRED' });
    expectStatus(await esewaFormOf(started.paymentUrl), 410);
  });

  it('when eSewa reports FULL_REFUND, then the order stays unpaid and the attempt reads FAILED', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    await esewaCheckout(started.paymentUrl, 'pay'); // never comes back
    esewa.byUuid(started.paymentRef).status = 'FULL_REFUND';
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'FAILED' });
  });

  it('when the returned data has a bad signature, another amount or another merchant, then it is refused and changes nothing', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const back = await esewaCheckout(started.paymentUrl, 'pay');
    const data = JSON.parse(Buffer.from(back.searchParams.get('data')!, 'base64').toString('utf8'));
    const withData = (fields: Record<string, string>) => {
      const url = new URL(back);
      url.searchParams.set('data', Buffer.from(JSON.stringify(fields)).toString('base64'));
      return url;
    };
    const resigned = (changes: Record<string, string>, secret?: string) => {
      const fields = { ...data, ...changes };
      return withData({ ...fields, signature: esewa.sign(fields, fields.signed_field_names, secret) });
    };
    const refusals = [
      withData({ ...data, total_amount: '45.0' }), // tampered, signature no longer matches
      resigned({ total_amount: '45.0' }), // correctly signed, but not this payment's amount
      resigned({ product_code: 'EPAYTEST' }), // another merchant
      resigned({}, 'another merchant key'), // signed with another key
      withData({ ...data, signed_field_names: 'transaction_code', signature: esewa.sign(data, 'transaction_code') }), // signs too little
    ];
    for (const url of refusals) {
      const answer = await deliverReturn(client, url);
      expectStatus(answer, 400);
    }
    expect((await attemptOf(started.paymentRef)).status).toBe('INITIATED');
    expectStatus(await deliverReturn(client, back), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });

  it('when the status check is down at the return, then the customer still goes back, nothing changes, and payment-status settles it once eSewa answers', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const back = await esewaCheckout(started.paymentUrl, 'pay');
    esewa.health = 'down';
    expectStatus(await deliverReturn(client, back), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'INITIATED' });
    esewa.health = 'up';
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
    expect((await ledgerOf(server, order.orderId)).successes).toBe(1);
  });
});

describe('after every provider scenario', () => {
  it('the invariant checker finds 0 violations on this database', async () => {
    const { stdout } = await run(process.execPath, [path.resolve(__dirname, '../../scripts/check-invariants.mjs')], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    });
    expect(stdout).toContain('invariants: 0 violations');
  });
});
