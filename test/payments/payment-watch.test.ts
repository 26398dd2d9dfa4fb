import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Order } from '../../src/modules/orders/entities/order';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { watchDueAttempts } from '../../src/modules/payments/payment-watch';
import { sample } from '../support/metrics-sample';
import { ORDERS } from '../support/order-fixtures';
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
import { ESEWA_TEST, startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { ESEWA_ABANDONED_AFTER_MS } from '../../src/modules/payments/providers/esewa/esewa-wire';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * The payment watch (payments decided late or taken back) against the providers' simulators:
 * card_gateway -> Khalti, wallet_gateway -> eSewa. The job's passes are run by the test at the
 * times it chooses (the clock moves, not the calendar); the server's own job is off. Its own
 * database: passes at future times would otherwise settle other files' attempts.
 */
let partner: TestPartner;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const run = promisify(execFile);
const { server, client, databaseUrl } = useTestServer({
  ownDatabase: 'watch',
  env: () => ({
    ...simulatedProvidersEnv(khalti, esewa),
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
    // Each payment-status call asks the provider afresh: the steps below change its answer between calls.
    PAYMENT_STATUS_LOOKUP_SECONDS: '0',
    RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
  }),
});
beforeAll(async () => {
  partner = await newPartner(server, client);
});
afterAll(() => Promise.all([khalti?.stop(), esewa?.stop()]));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One pass of the watch as if the clock read `at`. */
const pass = (at: Date) => watchDueAttempts(server.orm.em.fork(), server.payments, at);
const attemptOf = (paymentRef: string) => server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef });
const cancel = (orderRef: string) =>
  client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${encodeURIComponent(orderRef)}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
  );
const refundsOf = (orderId: string) =>
  server.orm.em.fork().find(Refund, { order: orderId }, { orderBy: { createdAt: 'asc' } });
/** The webhook events recorded about an order (whether or not the partner has an endpoint). */
async function eventsOf(orderRef: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const events = await server.orm.em
    .fork()
    .find(WebhookEvent, { companyId: partner.companyId }, { orderBy: { createdAt: 'asc' } });
  return events
    .map((event) => ({ type: event.type, data: event.payload.data as Record<string, unknown> }))
    .filter((event) => event.data.orderRef === orderRef);
}
const status = async (orderRef: string) => {
  const response = await paymentStatus(client, partner, orderRef);
  expectStatus(response, 200);
  return response.body.data;
};
const startPay = async (orderRef: string, gateway: 'card_gateway' | 'wallet_gateway') => {
  const response = await pay(client, partner, orderRef, { gateway, returnUrl: RETURN_URL }, randomUUID());
  expectStatus(response, 200);
  return response.body.data;
};

/**
 * Runs a pass at each next check the attempt asks for, until `until` or until the watch no longer
 * picks it; returns the pauses between the lookups (seconds).
 */
async function followSchedule(paymentRef: string, from: Date, until: Date): Promise<number[]> {
  const pauses: number[] = [];
  let now = from;
  for (;;) {
    const next = (await attemptOf(paymentRef)).nextCheckAt;
    if (!next || next.getTime() > until.getTime()) return pauses;
    await pass(next);
    if ((await attemptOf(paymentRef)).nextCheckAt?.getTime() === next.getTime()) return pauses;
    pauses.push(Math.round((next.getTime() - now.getTime()) / 1000));
    now = next;
  }
}

/** A Khalti payment the customer paid but Khalti left Pending; the attempt closed (expired) undecided an hour later. */
async function khaltiPendingAndClosed() {
  const order = await placeOrder(server, client, partner);
  const started = await startPay(order.orderRef, 'card_gateway');
  const back = await khaltiCheckout(started.paymentUrl, { action: 'pay', mobile: '9800000005' });
  expectStatus(await deliverReturn(client, back), 303);
  const pidx = khalti.byOrder(started.paymentRef).pidx;
  const start = new Date();
  await pass(new Date(start.getTime() + HOUR));
  expect(await attemptOf(started.paymentRef)).toMatchObject({
    status: 'EXPIRED',
    closedReason: 'EXPIRED',
    gatewayConfirmedAt: null,
  });
  return { order, started, pidx, closedAt: new Date(start.getTime() + HOUR) };
}

describe('undecided payments are watched until the provider decides', () => {
  it('when Khalti leaves a paid checkout Pending and completes it 3 days later, then the late capture still settles the order PAID', async () => {
    const { order, started, pidx, closedAt } = await khaltiPendingAndClosed();
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'EXPIRED' });

    // Well past the hour the old reconciliation watched: still asked, still undecided.
    await followSchedule(started.paymentRef, closedAt, new Date(closedAt.getTime() + 3 * DAY));
    expect(khalti.byOrder(started.paymentRef).lookups).toBeGreaterThan(15);
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PENDING');
    // The operator sees what the watch follows.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(
      sample(metrics, 'payment_watched_attempts', { provider: 'khalti', state: 'UNDECIDED' }),
    ).toBeGreaterThanOrEqual(1);

    khalti.setStatus(pidx, 'Completed');
    const due = (await attemptOf(started.paymentRef)).nextCheckAt!;
    const summary = await pass(due);
    expect(summary).toMatchObject({ checked: 1, LATE_CAPTURE: 1 });
    expect(await status(order.orderRef)).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: started.paymentRef,
    });
    const ledger = await ledgerOf(server, order.orderId);
    expect(ledger.successes).toBe(1);
    expect(ledger.attempts).toEqual([
      expect.objectContaining({
        status: 'SUCCESS',
        refundAmount: 0,
        gatewayTransactionId: khalti.byOrder(started.paymentRef).transactionId,
      }),
    ]);
  });

  it('the watch backs off: one minute, doubling to six hours, never more often', async () => {
    const { started, closedAt } = await khaltiPendingAndClosed();
    const pauses = await followSchedule(started.paymentRef, closedAt, new Date(closedAt.getTime() + 2 * DAY));
    expect(pauses.slice(0, 9)).toEqual([60, 120, 240, 480, 960, 1920, 3840, 7680, 15_360]);
    expect(pauses.slice(9).length).toBeGreaterThan(3);
    expect(pauses.slice(9).every((pause) => pause === 21_600)).toBe(true);
    // A pass before the next check asks nothing.
    const lookups = khalti.byOrder(started.paymentRef).lookups;
    const next = (await attemptOf(started.paymentRef)).nextCheckAt!;
    expect((await pass(new Date(next.getTime() - 1000))).checked).toBe(0);
    expect(khalti.byOrder(started.paymentRef).lookups).toBe(lookups);
  });

  it('when the provider never decides, then the watch ends after PROVIDER_DECISION_WATCH_DAYS with a line for the operator, and the attempt stays unpaid', async () => {
    const { order, started, closedAt } = await khaltiPendingAndClosed();
    await followSchedule(started.paymentRef, closedAt, new Date(closedAt.getTime() + 7 * DAY - 1));
    // The last lookup falls on the end of the watch, 7 days after the close.
    const last = (await attemptOf(started.paymentRef)).nextCheckAt!;
    expect(last.getTime()).toBe(closedAt.getTime() + 7 * DAY);
    // (Attempts of earlier tests, closed moments before, end their watch in this pass too.)
    expect((await pass(last)).gaveUp).toBeGreaterThanOrEqual(1);
    expect((await attemptOf(started.paymentRef)).nextCheckAt!.getTime()).toBeGreaterThan(last.getTime());
    const lookups = khalti.byOrder(started.paymentRef).lookups;
    await pass(new Date(closedAt.getTime() + 9 * DAY));
    expect(khalti.byOrder(started.paymentRef).lookups).toBe(lookups);
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PENDING');
  });

  it('when Khalti answers Pending for a few lookups and then Completed, then the watch settles it on the lookup that says so', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    await khaltiCheckout(started.paymentUrl, { action: 'pay', mobile: '9800000005' }); // never comes back
    khalti.completeAfterLookups(khalti.byOrder(started.paymentRef).pidx, 3);
    const t0 = new Date();
    await pass(new Date(t0.getTime() + 3 * MINUTE));
    await followSchedule(started.paymentRef, new Date(t0.getTime() + 3 * MINUTE), new Date(t0.getTime() + DAY));
    expect(khalti.byOrder(started.paymentRef).lookups).toBe(4);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });

  it('when eSewa answers AMBIGUOUS for days and then COMPLETE, then the order is settled PAID', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const form = await esewaFormOf(started.paymentUrl);
    await fetch(form.action!, { method: 'POST', body: new URLSearchParams(form.fields) }); // at eSewa's login page; never comes back
    esewa.completeAfterChecks(started.paymentRef, 12, 'AMBIGUOUS');
    const t0 = new Date();
    await pass(new Date(t0.getTime() + HOUR));
    expect(await attemptOf(started.paymentRef)).toMatchObject({ status: 'EXPIRED', gatewayConfirmedAt: null });
    await followSchedule(started.paymentRef, new Date(t0.getTime() + HOUR), new Date(t0.getTime() + 4 * DAY));
    expect(esewa.byUuid(started.paymentRef).status).toBe('COMPLETE');
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });

  it('when an eSewa checkout was abandoned (eSewa answers NOT_FOUND an hour after our form closed), then the attempt ends EXPIRED quietly and the watch stops, with no line for an operator', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    expectStatus(await esewaFormOf(started.paymentUrl), 200); // the customer saw our form page and went away
    const closedAt = new Date(Date.now() - ESEWA_ABANDONED_AFTER_MS - 60_000);
    await server.orm.em
      .fork()
      .nativeUpdate(
        PaymentAttempt,
        { paymentRef: started.paymentRef },
        { expiresAt: closedAt, createdAt: new Date(closedAt.getTime() - 15 * 60_000) },
      );
    await pass(new Date());
    expect(await attemptOf(started.paymentRef)).toMatchObject({
      status: 'EXPIRED',
      gatewayConfirmedAt: expect.any(Date),
      nextCheckAt: null,
    });
    const checks = esewa.statusCalls.get(started.paymentRef);
    // Out of the watch: no pass asks about it again, so none can give up on it with an operator's line.
    await pass(new Date(Date.now() + 8 * DAY));
    expect(esewa.statusCalls.get(started.paymentRef)).toBe(checks);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PENDING', paymentStatus: 'EXPIRED' });
  });

  it.each([200, 400])(
    'when eSewa leaves a paid payment PENDING (the customer sent to failure_url) and answers its outage body (HTTP %i) more than an hour after our form closed, then the watch goes on and records the late COMPLETE: the order PAID',
    async (httpStatus) => {
      const order = await placeOrder(server, client, partner);
      const started = await startPay(order.orderRef, 'wallet_gateway');
      const back = await esewaCheckout(started.paymentUrl, 'pay', ESEWA_TEST.pendingId);
      expect(back.searchParams.get('data')).toBeNull(); // failure_url, nothing appended
      expectStatus(await deliverReturn(client, back), 303);
      expect(esewa.byUuid(started.paymentRef).status).toBe('PENDING');
      // Our form closed more than ESEWA_ABANDONED_AFTER_MS ago; eSewa still answered PENDING when we closed the attempt.
      const closedAt = new Date(Date.now() - ESEWA_ABANDONED_AFTER_MS - 60_000);
      await server.orm.em
        .fork()
        .nativeUpdate(
          PaymentAttempt,
          { paymentRef: started.paymentRef },
          { expiresAt: closedAt, createdAt: new Date(closedAt.getTime() - 15 * 60_000) },
        );
      const t0 = new Date();
      await pass(t0);
      expect(await attemptOf(started.paymentRef)).toMatchObject({ status: 'EXPIRED', gatewayConfirmedAt: null });

      esewa.statusOutage = httpStatus;
      const checksBefore = esewa.statusCalls.get(started.paymentRef) ?? 0;
      try {
        await followSchedule(started.paymentRef, t0, new Date(t0.getTime() + 3 * HOUR));
      } finally {
        esewa.statusOutage = null;
      }
      expect(esewa.statusCalls.get(started.paymentRef)).toBeGreaterThan(checksBefore);
      expect(await attemptOf(started.paymentRef)).toMatchObject({
        status: 'EXPIRED',
        gatewayConfirmedAt: null,
        nextCheckAt: expect.any(Date),
      });

      esewa.completeAfterChecks(started.paymentRef, 0);
      await followSchedule(started.paymentRef, new Date(t0.getTime() + 3 * HOUR), new Date(t0.getTime() + 2 * DAY));
      expect(esewa.byUuid(started.paymentRef).status).toBe('COMPLETE');
      expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
      expect((await ledgerOf(server, order.orderId)).successes).toBe(1);
    },
  );

  it('when eSewa answers NOT_FOUND while our form may still be posted, then the attempt stays undecided and watched', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    await server.orm.em
      .fork()
      .nativeUpdate(PaymentAttempt, { paymentRef: started.paymentRef }, { expiresAt: new Date(Date.now() - 60_000) });
    await pass(new Date());
    expect(await attemptOf(started.paymentRef)).toMatchObject({
      status: 'EXPIRED',
      gatewayConfirmedAt: null,
      nextCheckAt: expect.any(Date),
    });
  });

  it('when the order was paid by a newer attempt meanwhile, then the late eSewa capture is owed back (REFUND_PENDING), never a second payment', async () => {
    const order = await placeOrder(server, client, partner);
    const first = await startPay(order.orderRef, 'wallet_gateway');
    const form = await esewaFormOf(first.paymentUrl);
    await fetch(form.action!, { method: 'POST', body: new URLSearchParams(form.fields) });
    // The partner starts again on Khalti (a new key closes the eSewa attempt undecided) and the customer pays there.
    const second = await startPay(order.orderRef, 'card_gateway');
    expectStatus(await deliverReturn(client, await khaltiCheckout(second.paymentUrl, { action: 'pay' })), 303);
    expect(await attemptOf(first.paymentRef)).toMatchObject({
      status: 'CANCELLED',
      closedReason: 'SUPERSEDED',
      gatewayConfirmedAt: null,
    });

    esewa.completeAfterChecks(first.paymentRef, 0);
    await pass(new Date(Date.now() + 2 * DAY));
    expect(await attemptOf(first.paymentRef)).toMatchObject({ status: 'REFUND_PENDING', refundAmount: 4500_00 });
    expect(await status(order.orderRef)).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: second.paymentRef,
    });
    expect((await ledgerOf(server, order.orderId)).successes).toBe(1);
  });

  it('two passes at the same moment (two processes) ask the provider once per attempt', async () => {
    const refs: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const order = await placeOrder(server, client, partner);
      const started = await startPay(order.orderRef, 'card_gateway');
      await khaltiCheckout(started.paymentUrl, { action: 'pay', mobile: '9800000005' });
      refs.push(started.paymentRef);
    }
    // Due now and nothing else in this database is: every attempt of earlier tests is scheduled later or done.
    const at = new Date(Date.now() + 3 * MINUTE);
    const lookupsBefore = refs.map((ref) => khalti.byOrder(ref).lookups);
    const [a, b] = await Promise.all([pass(at), pass(at)]);
    const lookupsAfter = refs.map((ref) => khalti.byOrder(ref).lookups);
    expect(lookupsAfter.map((n, i) => n - (lookupsBefore[i] ?? 0))).toEqual([1, 1, 1, 1]);
    expect(a.checked + b.checked).toBeGreaterThanOrEqual(4);
  });
});

describe('paid payments are looked up again for PAYMENT_REVERSAL_WATCH_DAYS', () => {
  it('a paid attempt is first asked an hour after its capture, and not after PAYMENT_REVERSAL_WATCH_DAYS', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
    const paidAt = (await attemptOf(started.paymentRef)).completedAt!;
    const lookups = () => khalti.byOrder(started.paymentRef).lookups;
    const afterReturn = lookups();
    await pass(new Date(paidAt.getTime() + 30 * MINUTE));
    expect(lookups()).toBe(afterReturn);
    await pass(new Date(paidAt.getTime() + HOUR + MINUTE));
    expect(lookups()).toBe(afterReturn + 1);
    const pauses = await followSchedule(
      started.paymentRef,
      new Date(paidAt.getTime() + HOUR + MINUTE),
      new Date(paidAt.getTime() + 40 * DAY),
    );
    expect(pauses.slice(0, 3)).toEqual([3600, 7200, 14_400]);
    expect(Math.max(...pauses)).toBe(86_400);
    const attempt = await attemptOf(started.paymentRef);
    expect(attempt.nextCheckAt!.getTime()).toBeGreaterThan(paidAt.getTime() + 30 * DAY);
    const total = lookups();
    expect((await pass(new Date(paidAt.getTime() + 40 * DAY))).checked).toBe(0);
    expect(lookups()).toBe(total);
  });

  it('when Khalti reports a paid payment Refunded (a refund made in its portal), then a refund SUCCEEDED is recorded and the policy is cancelled (PAYMENT_REVERSED), with the webhooks', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
    const paidAt = (await attemptOf(started.paymentRef)).completedAt!;
    khalti.refundInPortal(khalti.byOrder(started.paymentRef).pidx, 'full');
    const summary = await pass(new Date(paidAt.getTime() + 2 * HOUR));
    expect(summary).toMatchObject({ REVERSED: 1 });
    expect(await attemptOf(started.paymentRef)).toMatchObject({
      status: 'REFUNDED',
      refundAmount: 4500_00,
      refundReason: 'PAYMENT_REVERSED',
      providerReversal: 'FULL',
      nextCheckAt: null,
    });
    expect(await status(order.orderRef)).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUNDED',
      paymentRef: started.paymentRef,
    });

    const refunds = await refundsOf(order.orderId);
    expect(refunds).toEqual([
      expect.objectContaining({
        cause: 'PROVIDER_REVERSAL',
        status: 'SUCCEEDED',
        amount: 4500_00,
        fee: 0,
        gateway: 'card_gateway',
        provider: 'khalti',
        providerRefundRef: khalti.byOrder(started.paymentRef).transactionId,
        tries: 0,
        actor: 'reversal-watch',
      }),
    ]);
    expect(refunds[0]!.refundRef).toMatch(/^RFD-\d{4}-\d{6,}$/);
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('CANCELLED');
    expect(await eventsOf(order.orderRef)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'refund.succeeded',
          data: expect.objectContaining({
            refundRef: refunds[0]!.refundRef,
            amount: 4500,
            status: 'SUCCEEDED',
            cause: 'PROVIDER_REVERSAL',
          }),
        }),
        expect.objectContaining({
          type: 'order.cancelled',
          data: expect.objectContaining({
            reason: 'PAYMENT_REVERSED',
            refund: expect.objectContaining({ refundRef: refunds[0]!.refundRef }),
          }),
        }),
      ]),
    );
    // Found once: later passes record nothing more.
    await pass(new Date(paidAt.getTime() + 3 * DAY));
    expect(await refundsOf(order.orderId)).toHaveLength(1);
  });

  it('when eSewa answers CANCELED ("Canceled/Reversed from eSewa side") for a paid payment, then it is a full reversal: a refund SUCCEEDED is recorded and the order is cancelled (PAYMENT_REVERSED)', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    expectStatus(await deliverReturn(client, await esewaCheckout(started.paymentUrl, 'pay')), 303);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'PAID' });
    const paidAt = (await attemptOf(started.paymentRef)).completedAt!;
    esewa.reverseAtEsewa(started.paymentRef);
    expect(await pass(new Date(paidAt.getTime() + 2 * HOUR))).toMatchObject({ REVERSED: 1 });
    expect(await attemptOf(started.paymentRef)).toMatchObject({
      status: 'REFUNDED',
      refundReason: 'PAYMENT_REVERSED',
      providerReversal: 'FULL',
    });
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'CANCELLED', paymentStatus: 'REFUNDED' });
    expect(await refundsOf(order.orderId)).toEqual([
      expect.objectContaining({ cause: 'PROVIDER_REVERSAL', status: 'SUCCEEDED', amount: 4500_00, provider: 'esewa' }),
    ]);
    expect(await eventsOf(order.orderRef)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'order.cancelled',
          data: expect.objectContaining({ reason: 'PAYMENT_REVERSED' }),
        }),
      ]),
    );
  });

  it('when a group payment is refunded in full at Khalti, then each order gets its share back as a refund and each is cancelled', async () => {
    const group = await placeGroup(server, client, partner, 2);
    const response = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(response, 200);
    const paymentRef = response.body.data.paymentRef;
    expectStatus(
      await deliverReturn(client, await khaltiCheckout(response.body.data.paymentUrl, { action: 'pay' })),
      303,
    );
    khalti.refundInPortal(khalti.byOrder(paymentRef).pidx, 'full');
    expect(await pass(new Date((await attemptOf(paymentRef)).completedAt!.getTime() + 2 * HOUR))).toMatchObject({
      REVERSED: 1,
    });
    for (const order of group.orders) {
      expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('CANCELLED');
      expect(await refundsOf(order.orderId)).toEqual([
        expect.objectContaining({ cause: 'PROVIDER_REVERSAL', status: 'SUCCEEDED', amount: 4500_00 }),
      ]);
    }
  });

  it('when eSewa reports PARTIAL_REFUND and later FULL_REFUND, then each is recorded once', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'wallet_gateway');
    const form = await esewaFormOf(started.paymentUrl);
    await fetch(form.action!, { method: 'POST', body: new URLSearchParams(form.fields) });
    esewa.completeAfterChecks(started.paymentRef, 0);
    // No payment-status call here (it would ask eSewa itself): the watch is what settles it.
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PENDING');
    const t0 = new Date();
    await pass(new Date(t0.getTime() + 3 * MINUTE));
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PAID');
    const paidAt = (await attemptOf(started.paymentRef)).completedAt!;

    // Partial: eSewa does not say how much; the policy stays, the operator is told, the watch goes on.
    esewa.refundAtEsewa(started.paymentRef, 'partial');
    expect(await pass(new Date(paidAt.getTime() + 2 * HOUR))).toMatchObject({ PARTIALLY_REVERSED: 1 });
    expect(await attemptOf(started.paymentRef)).toMatchObject({ providerReversal: 'PARTIAL' });
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PAID');
    expect(await refundsOf(order.orderId)).toEqual([]);
    const next = (await attemptOf(started.paymentRef)).nextCheckAt!;
    expect(await pass(next)).toMatchObject({ PARTIALLY_REVERSED: 0 });

    esewa.refundAtEsewa(started.paymentRef, 'full');
    expect(await pass((await attemptOf(started.paymentRef)).nextCheckAt!)).toMatchObject({ REVERSED: 1 });
    expect(await attemptOf(started.paymentRef)).toMatchObject({ providerReversal: 'FULL', nextCheckAt: null });
    expect(await refundsOf(order.orderId)).toEqual([
      expect.objectContaining({
        cause: 'PROVIDER_REVERSAL',
        status: 'SUCCEEDED',
        amount: 4500_00,
        provider: 'esewa',
        providerRefundRef: esewa.byUuid(started.paymentRef).refId,
      }),
    ]);
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('CANCELLED');
  });

  it('when Khalti reads Refunded because of our own refund (a cancellation within the free look), then the watch records nothing more', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
    expectStatus(await cancel(order.orderRef), 200);
    await server.refunds.runOnce();
    expect(khalti.byOrder(started.paymentRef).status).toBe('Refunded');
    const events = (await eventsOf(order.orderRef)).length;
    expect(await pass(new Date((await attemptOf(started.paymentRef)).completedAt!.getTime() + 2 * HOUR))).toMatchObject(
      { REVERSED: 0 },
    );
    expect(await refundsOf(order.orderId)).toEqual([
      expect.objectContaining({ cause: 'CANCELLATION', status: 'SUCCEEDED' }),
    ]);
    expect(await attemptOf(started.paymentRef)).toMatchObject({ providerReversal: 'FULL', nextCheckAt: null });
    expect((await eventsOf(order.orderRef)).length).toBe(events);
  });

  it("when our partial refund (a cancellation fee kept) is followed by a refund of the rest in Khalti's portal, then only the fee is recorded as the provider's refund", async () => {
    const order = await placeOrder(server, client, partner);
    const started = await startPay(order.orderRef, 'card_gateway');
    expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
    await server.orm.em.fork().nativeUpdate(Order, { id: order.orderId }, { paidAt: new Date(Date.now() - 30 * DAY) });
    expectStatus(await cancel(order.orderRef), 200);
    await server.refunds.runOnce();
    const simulated = khalti.byOrder(started.paymentRef);
    expect(simulated.status).toBe('Partially Refunded');
    const paidAt = (await attemptOf(started.paymentRef)).completedAt!;
    // Our own partial refund: not the provider's doing.
    expect(await pass(new Date(paidAt.getTime() + 2 * HOUR))).toMatchObject({ PARTIALLY_REVERSED: 0 });
    expect((await attemptOf(started.paymentRef)).providerReversal ?? null).toBeNull();

    khalti.refundInPortal(simulated.pidx, 'full');
    expect(await pass((await attemptOf(started.paymentRef)).nextCheckAt!)).toMatchObject({ REVERSED: 1 });
    expect(await refundsOf(order.orderId)).toEqual([
      expect.objectContaining({ cause: 'CANCELLATION', status: 'SUCCEEDED', amount: 4050_00, fee: 450_00 }),
      expect.objectContaining({ cause: 'PROVIDER_REVERSAL', status: 'SUCCEEDED', amount: 450_00, fee: 0 }),
    ]);
    expect((await eventsOf(order.orderRef)).filter((event) => event.type === 'order.cancelled')).toHaveLength(1);
    expect(await status(order.orderRef)).toMatchObject({ orderStatus: 'CANCELLED', paymentStatus: 'REFUNDED' });
  });

  it('the invariant checker finds 0 violations on this database', async () => {
    // The checker exits 1 with the violations on stdout: show them.
    const { stdout } = await run(process.execPath, [path.resolve(__dirname, '../../scripts/check-invariants.mjs')], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    expect(stdout).toContain('invariants: 0 violations');
  });
});
