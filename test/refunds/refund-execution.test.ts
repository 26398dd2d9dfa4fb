import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Order } from '../../src/modules/orders/entities/order';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { refundWrites } from '../../src/modules/payments/refund-writes';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { confirmRefund, confirmRefundsOfPayment, retryRefund } from '../../src/modules/refunds/refund-operations';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { watchDueAttempts } from '../../src/modules/payments/payment-watch';
import { refundRetriesExhausted } from '../../src/modules/refunds/rules/refund-life';
import { recordPartialReversal } from '../../src/modules/refunds/partial-reversal';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { groupPayPath, pay, paymentStatus, placeGroup, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { deliverReturn, esewaCheckout, khaltiCheckout } from '../support/provider-browser';
import { newCode, newSalesCompany, orderPromoPath } from '../support/promo-fixtures';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Refunds made by the service (decision record 0062): card_gateway on the Khalti
 * simulator's refund API, wallet_gateway on the eSewa simulator (no refund API: MANUAL). The
 * executor is run by hand (runOnce) so each step is seen; its kick after commit may run too,
 * which changes nothing the assertions read (a refund is made once).
 */
const run = promisify(execFile);
let partner: TestPartner;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const { server, client, databaseUrl } = useTestServer({
  ownDatabase: 'refunds',
  env: () => ({
    ...simulatedProvidersEnv(khalti, esewa),
    PAYMENT_PROVIDER_TIMEOUT_MS: '2000',
    PAYMENT_RECONCILE_AFTER_SECONDS: '0',
    RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
    // The executor's own passes stay out of the way: the tests run it.
    REFUND_INTERVAL_SECONDS: '0',
  }),
});
beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Refund Path Treks Pvt. Ltd.' });
  server.payments.kickRefunds = undefined;
});
afterAll(() => Promise.all([khalti?.stop(), esewa?.stop()]));
afterEach(() => {
  khalti.health = 'up';
  khalti.refunds.dropAnswers = 0;
});

const cancel = (identifier: string) =>
  client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${encodeURIComponent(identifier)}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
  );

async function paidOnKhalti(orderRef: string) {
  const started = (await pay(client, partner, orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body.data;
  expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
  return { started, simulated: khalti.byOrder(started.paymentRef) };
}

const refundOf = (orderRef: string) =>
  server.orm.em.fork().findOneOrFail(Refund, { order: { orderRef } }, { populate: ['attempt'] });
/** The executor's next try is due now (the test moves the clock, not the calendar). */
const dueNow = (refundRef: string) =>
  server.orm.em.fork().nativeUpdate(Refund, { refundRef }, { nextTryAt: new Date(Date.now() - 1000) });
const eventsOf = async (type: string, refundRef: string) =>
  (await server.orm.em.fork().find(WebhookEvent, { type })).filter(
    (event) => (event.payload as { data: { refundRef?: string } }).data.refundRef === refundRef,
  );

describe('Khalti refunds through its refund API', () => {
  it('refunds a Khalti payment in full within the free look: one refund call, Khalti reads Refunded, the refund SUCCEEDED and refund.succeeded is sent', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    const callsBefore = khalti.refunds.calls;
    const answer = await cancel(order.orderRef);
    expectStatus(answer, 200);
    expect(answer.body.data.refund).toMatchObject({
      amount: order.totalAmount,
      cancellationFee: 0,
      status: 'PENDING',
      gateway: 'CARD_GATEWAY',
    });
    await server.refunds.runOnce();
    const refund = await refundOf(order.orderRef);
    expect(refund).toMatchObject({
      status: 'SUCCEEDED',
      provider: 'khalti',
      providerRefundRef: `khalti:${simulated.transactionId}`,
      tries: 1,
    });
    expect(khalti.refunds.calls - callsBefore).toBe(1);
    expect(simulated).toMatchObject({ status: 'Refunded', refunded: simulated.amount });
    expect((await paymentStatus(client, partner, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUNDED',
    });
    expect(await eventsOf('refund.succeeded', refund.refundRef)).toHaveLength(1);
  });

  it('refunds part of the payment after the free look: the amount in paisa is the share less 10 %', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    await server.orm.em
      .fork()
      .nativeUpdate(Order, { id: order.orderId }, { paidAt: new Date(Date.now() - 30 * 86_400_000) });
    const answer = await cancel(order.orderRef);
    const share = simulated.amount;
    expect(answer.body.data.refund).toMatchObject({
      amount: (share - share / 10) / 100,
      cancellationFee: share / 10 / 100,
    });
    await server.refunds.runOnce();
    expect(simulated).toMatchObject({ status: 'Partially Refunded', refunded: share - share / 10 });
    expect((await refundOf(order.orderRef)).status).toBe('SUCCEEDED');
  });

  it('refunds one order of a group paid on Khalti by its own share: a partial refund of the group payment', async () => {
    const group = await placeGroup(server, client, partner, 2);
    const response = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(
      await deliverReturn(client, await khaltiCheckout(response.body.data.paymentUrl, { action: 'pay' })),
      303,
    );
    const simulated = khalti.byOrder(response.body.data.paymentRef);
    const [first, second] = group.orders;
    await cancel(first!.orderRef);
    await server.refunds.runOnce();
    expect(simulated).toMatchObject({ status: 'Partially Refunded', refunded: Math.round(first!.totalAmount * 100) });
    // The second share's refund comes after the first on the same Khalti transaction.
    await cancel(second!.orderRef);
    await server.refunds.runOnce();
    expect(simulated).toMatchObject({ status: 'Refunded', refunded: simulated.amount });
    expect((await refundOf(second!.orderRef)).status).toBe('SUCCEEDED');
  });

  it('retries with back-off while Khalti is down, then refunds once it answers', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    khalti.health = 'down';
    await cancel(order.orderRef);
    await server.refunds.runOnce();
    const waiting = await refundOf(order.orderRef);
    expect(waiting).toMatchObject({ status: 'PENDING', tries: 1 });
    expect(waiting.lastError).toBeTruthy();
    expect(waiting.nextTryAt!.getTime()).toBeGreaterThan(Date.now() + 5000);
    // Not due yet: a pass leaves it alone.
    await server.refunds.runOnce();
    expect((await refundOf(order.orderRef)).tries).toBe(1);
    khalti.health = 'up';
    await dueNow(waiting.refundRef);
    await server.refunds.runOnce();
    expect(await refundOf(order.orderRef)).toMatchObject({ status: 'SUCCEEDED', tries: 2 });
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!)).toBe(1);
  });

  it('does not refund twice when Khalti made the refund but its answer was lost: the retry looks first', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    khalti.refunds.dropAnswers = 1;
    await cancel(order.orderRef);
    await server.refunds.runOnce();
    const first = await refundOf(order.orderRef);
    expect(first.status).toBe('PENDING');
    expect(simulated.status).toBe('Refunded');
    await dueNow(first.refundRef);
    await server.refunds.runOnce();
    const after = await refundOf(order.orderRef);
    expect([after.status, after.tries, after.lastError]).toEqual(['SUCCEEDED', 2, null]);
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!)).toBe(1);
  });

  it('marks a refund Khalti refuses FAILED with refund.failed, and ops refund retry finds it made since (in the portal) without a second call', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    await cancel(order.orderRef);
    // Khalti no longer shows the payment as one it can refund.
    khalti.setStatus(simulated.pidx, 'Expired');
    await server.refunds.runOnce();
    const failed = await refundOf(order.orderRef);
    expect(failed.status).toBe('FAILED');
    expect(await eventsOf('refund.failed', failed.refundRef)).toHaveLength(1);
    // An operator refunds it in Khalti's portal, then asks the service to try again.
    khalti.setStatus(simulated.pidx, 'Refunded');
    await retryRefund(server.orm.em.fork(), { refundWrites }, failed.refundRef, 'operator-cli:test');
    await server.refunds.runOnce();
    expect((await refundOf(order.orderRef)).status).toBe('SUCCEEDED');
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!) ?? 0).toBe(0);
  });

  it('makes a refund MANUAL, with what was seen, when Khalti shows the payment refunded in full before our first try: no call, never SUCCEEDED', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    await cancel(order.orderRef);
    khalti.setStatus(simulated.pidx, 'Refunded');
    await server.refunds.runOnce();
    const manual = await refundOf(order.orderRef);
    expect(manual).toMatchObject({
      status: 'MANUAL',
      lastError: expect.stringContaining('Khalti shows the payment Refunded'),
    });
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!) ?? 0).toBe(0);
    expect(await eventsOf('refund.succeeded', manual.refundRef)).toHaveLength(0);
  });

  it('refunds a late capture (REFUND_PENDING) through the same machinery: nobody has to', async () => {
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }))
      .body.data;
    // A promo change closes the Khalti checkout, which Khalti cannot void: the customer pays it anyway.
    const promoCode = await newCode(server, await newSalesCompany(server), { percent: 10 });
    expectStatus(
      await client.op(
        'applyOrderPromo',
        'POST',
        orderPromoPath(order.orderRef),
        { promoCode },
        { token: partner.token },
      ),
      200,
    );
    await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' }));
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    expect(attempt.status).toBe('REFUND_PENDING');
    const owed = await server.orm.em.fork().findOneOrFail(Refund, { attempt: attempt.id });
    expect(owed).toMatchObject({ cause: 'LATE_CAPTURE', status: 'PENDING', amount: attempt.amount });
    await server.refunds.runOnce();
    expect(await server.orm.em.fork().findOneOrFail(Refund, { attempt: attempt.id })).toMatchObject({
      status: 'SUCCEEDED',
    });
    expect(await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef })).toMatchObject({
      status: 'REFUNDED',
    });
    expect(khalti.byOrder(started.paymentRef).status).toBe('Refunded');
  });
});

describe('eSewa refunds, which it has no API for', () => {
  it("records an eSewa refund MANUAL, and the operator's confirmation makes it SUCCEEDED", async () => {
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'wallet_gateway', returnUrl: RETURN_URL }))
      .body.data;
    expectStatus(await deliverReturn(client, await esewaCheckout(started.paymentUrl, 'pay')), 303);
    const answer = await cancel(order.orderRef);
    expect(answer.body.data.refund).toMatchObject({
      status: 'MANUAL',
      gateway: 'WALLET_GATEWAY',
      amount: order.totalAmount,
    });
    await server.refunds.runOnce();
    expect((await refundOf(order.orderRef)).status).toBe('MANUAL');
    await confirmRefund(
      server.orm.em.fork(),
      { refundWrites },
      answer.body.data.refund.refundRef,
      'ESEWA-PORTAL-RFD-5521',
      'operator-cli:test',
    );
    expect(await refundOf(order.orderRef)).toMatchObject({ status: 'SUCCEEDED', note: 'ESEWA-PORTAL-RFD-5521' });
    expect((await paymentStatus(client, partner, order.orderRef)).body.data).toMatchObject({
      paymentStatus: 'REFUNDED',
      refund: { status: 'SUCCEEDED' },
    });
  });
});

describe('exact against Khalti, one refund life (issue 36)', () => {
  async function paidGroupOnKhalti(size: number) {
    const group = await placeGroup(server, client, partner, size);
    const response = await client.op(
      'payGroup',
      'POST',
      groupPayPath(group.groupRef),
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(
      await deliverReturn(client, await khaltiCheckout(response.body.data.paymentUrl, { action: 'pay' })),
      303,
    );
    return {
      orders: group.orders,
      paymentRef: response.body.data.paymentRef as string,
      simulated: khalti.byOrder(response.body.data.paymentRef),
    };
  }

  it('sends one refund of a provider transaction at a time: a sibling of a refund in flight waits for a later pass', async () => {
    const {
      orders: [first, second],
      simulated,
    } = await paidGroupOnKhalti(3);
    await cancel(first!.orderRef);
    await cancel(second!.orderRef);
    // The first is at Khalti right now (claimed by another executor).
    await server.orm.em
      .fork()
      .nativeUpdate(
        Refund,
        { order: { orderRef: first!.orderRef } },
        { claimedUntil: new Date(Date.now() + 60_000), nextTryAt: new Date(Date.now() + 60_000) },
      );
    await server.refunds.runOnce();
    expect(await refundOf(second!.orderRef)).toMatchObject({ status: 'PENDING', tries: 0 });
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!) ?? 0).toBe(0);
  });

  it('never takes a partial refund a sibling may have made as its own: two refunds of one group payment with lost answers end MANUAL, no refund.succeeded without money', async () => {
    const {
      orders: [first, second],
      simulated,
    } = await paidGroupOnKhalti(3);
    await cancel(first!.orderRef);
    khalti.refunds.dropAnswers = 1;
    await server.refunds.runOnce();
    // The first's money went back; its answer was lost.
    expect(await refundOf(first!.orderRef)).toMatchObject({ status: 'PENDING', tries: 1 });
    await cancel(second!.orderRef);
    // The second's first try died at Khalti mid-call (its lease ran out, never cleared): its outcome is unknown.
    const secondRefund = await refundOf(second!.orderRef);
    await server.orm.em
      .fork()
      .nativeUpdate(
        Refund,
        { refundRef: secondRefund.refundRef },
        { tries: 1, claimedUntil: new Date(Date.now() - 1000) },
      );
    // The second's retry sees "Partially Refunded": the first's money, not its own.
    await dueNow(secondRefund.refundRef);
    await server.refunds.runOnce();
    expect(await refundOf(second!.orderRef)).toMatchObject({
      status: 'MANUAL',
      lastError: expect.stringContaining('Partially Refunded'),
    });
    expect(await eventsOf('refund.succeeded', secondRefund.refundRef)).toHaveLength(0);
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!)).toBe(1);
  });

  it('refunds its own share when an earlier try failed at the lookup, before anything was sent: a second partial refund of one group payment after Khalti was down is no uncertain retry', async () => {
    const {
      orders: [first, second],
      simulated,
    } = await paidGroupOnKhalti(3);
    await cancel(first!.orderRef);
    await server.refunds.runOnce();
    expect(await refundOf(first!.orderRef)).toMatchObject({ status: 'SUCCEEDED' });
    await cancel(second!.orderRef);
    khalti.health = 'down';
    await server.refunds.runOnce();
    khalti.health = 'up';
    const waiting = await refundOf(second!.orderRef);
    expect(waiting).toMatchObject({ status: 'PENDING', tries: 1, outcomeUnknown: false });
    // Khalti now reads "Partially Refunded" (the first's money): a retry of unknown outcome would stop at MANUAL here.
    await dueNow(waiting.refundRef);
    await server.refunds.runOnce();
    expect(await refundOf(second!.orderRef)).toMatchObject({ status: 'SUCCEEDED', tries: 2 });
    expect(simulated.refunded).toBe(Math.round((first!.totalAmount + second!.totalAmount) * 100));
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!)).toBe(2);
    expect(await eventsOf('refund.succeeded', waiting.refundRef)).toHaveLength(1);
  });

  it('does not refund on a first try over a partial refund made elsewhere (in the portal): MANUAL with what was seen', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    khalti.refundInPortal(simulated.pidx, 'partial');
    await cancel(order.orderRef);
    await server.refunds.runOnce();
    expect(await refundOf(order.orderRef)).toMatchObject({
      status: 'MANUAL',
      lastError: expect.stringContaining('partly refunded'),
    });
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!) ?? 0).toBe(0);
  });

  it("counts a FAILED refund in the reversal watch: the operator's portal refund after it is that refund (SUCCEEDED once), not a new one", async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    await cancel(order.orderRef);
    khalti.setStatus(simulated.pidx, 'Expired');
    await server.refunds.runOnce();
    const failed = await refundOf(order.orderRef);
    expect(failed.status).toBe('FAILED');
    khalti.setStatus(simulated.pidx, 'Refunded');
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    await watchDueAttempts(
      server.orm.em.fork(),
      server.payments,
      new Date(attempt.completedAt!.getTime() + 2 * 3600_000),
    );
    const refunds = await server.orm.em.fork().find(Refund, { order: { orderRef: order.orderRef } });
    expect(refunds.map((refund) => [refund.refundRef, refund.cause, refund.status])).toEqual([
      [failed.refundRef, 'CANCELLATION', 'SUCCEEDED'],
    ]);
    expect(await eventsOf('refund.succeeded', failed.refundRef)).toHaveLength(1);
    await expect(
      confirmRefund(server.orm.em.fork(), { refundWrites }, failed.refundRef, 'KHALTI-PORTAL-1', 'operator-cli:test'),
    ).rejects.toThrow(/already SUCCEEDED/);
  });

  it('cancels over a recorded PARTIAL reversal with a refund the operator makes (MANUAL, the reason said), never the whole share sent again', async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    khalti.refundInPortal(simulated.pidx, 'partial');
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    await watchDueAttempts(
      server.orm.em.fork(),
      server.payments,
      new Date(attempt.completedAt!.getTime() + 2 * 3600_000),
    );
    expect(await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef })).toMatchObject({
      providerReversal: 'PARTIAL',
    });
    const answer = await cancel(order.orderRef);
    expect(answer.body.data.refund).toMatchObject({ status: 'MANUAL' });
    await server.refunds.runOnce();
    expect(await refundOf(order.orderRef)).toMatchObject({
      status: 'MANUAL',
      lastError: expect.stringContaining('part of this payment already given back'),
    });
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!) ?? 0).toBe(0);
  });

  it('tells the partner of a partial reversal at the provider (payment.partially_reversed), and the operator records its amount: a PROVIDER_REVERSAL refund, the order still paid', async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    khalti.refundInPortal(simulated.pidx, 'partial');
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    await watchDueAttempts(
      server.orm.em.fork(),
      server.payments,
      new Date(attempt.completedAt!.getTime() + 2 * 3600_000),
    );
    const told = (await server.orm.em.fork().find(WebhookEvent, { type: 'payment.partially_reversed' })).filter(
      (event) => (event.payload as { data: { orderRef?: string } }).data.orderRef === order.orderRef,
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.payload).toMatchObject({
      data: { orderStatus: 'PAID', paymentRef: started.paymentRef, reason: 'PARTIALLY_REVERSED_AT_PROVIDER' },
    });

    const seen = {
      paymentRef: started.paymentRef,
      orderRef: order.orderRef,
      note: 'KHALTI-PORTAL-PARTIAL-88',
      actor: 'operator-cli:test',
    };
    await expect(
      recordPartialReversal(server.orm.em.fork(), { refundWrites }, { ...seen, amount: simulated.amount + 1 }),
    ).rejects.toThrow(/at most what the share has not had back/);
    const refund = await recordPartialReversal(server.orm.em.fork(), { refundWrites }, { ...seen, amount: 100_000 });
    expect(refund).toMatchObject({
      cause: 'PROVIDER_REVERSAL',
      status: 'SUCCEEDED',
      amount: 100_000,
      note: 'KHALTI-PORTAL-PARTIAL-88',
    });
    expect(await eventsOf('refund.succeeded', refund.refundRef)).toHaveLength(1);
    expect((await server.orm.em.fork().findOneOrFail(Order, order.orderId)).status).toBe('PAID');
  });

  it("ops payment refund goes through the refund's life: refused while the service is making the refund, then the one step with its audit entry and event", async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    await cancel(order.orderRef);
    await expect(
      confirmRefundsOfPayment(
        server.orm.em.fork(),
        { refundWrites },
        started.paymentRef,
        'BANK-7781',
        'operator-cli:test',
      ),
    ).rejects.toThrow(/refunds the service is making/);
    khalti.setStatus(simulated.pidx, 'Expired');
    await server.refunds.runOnce();
    const [confirmed] = await confirmRefundsOfPayment(
      server.orm.em.fork(),
      { refundWrites },
      started.paymentRef,
      'BANK-7781',
      'operator-cli:test',
    );
    expect(confirmed).toMatchObject({ status: 'SUCCEEDED', note: 'BANK-7781' });
    expect(await eventsOf('refund.succeeded', confirmed!.refundRef)).toHaveLength(1);
  });

  it('completes a refund of nothing (a fee of the whole share) with no provider call', async () => {
    const order = await placeOrder(server, client, partner);
    const { simulated } = await paidOnKhalti(order.orderRef);
    await server.orm.em
      .fork()
      .nativeUpdate(Order, { id: order.orderId }, { paidAt: new Date(Date.now() - 30 * 86_400_000) });
    const settings = server.payments.payments;
    const percent = settings.cancellationFeePercent;
    settings.cancellationFeePercent = 100;
    try {
      const cancelled = await cancelFromCommandLine(
        server.orm.em.fork(),
        order.orderRef,
        'operator-cli:test',
        server.payments,
        undefined,
        'the whole premium is kept',
      );
      expect(cancelled.refund).toMatchObject({ amount: 0, fee: simulated.amount, status: 'SUCCEEDED' });
    } finally {
      settings.cancellationFeePercent = percent;
    }
    await server.refunds.runOnce();
    expect(khalti.refunds.callsByTransaction.get(simulated.transactionId!) ?? 0).toBe(0);
    expect(await eventsOf('refund.succeeded', (await refundOf(order.orderRef)).refundRef)).toHaveLength(1);
  });

  it('keeps retrying while Khalti is down for REFUND_RETRY_DAYS (3) at most hourly, not about four hours', async () => {
    const order = await placeOrder(server, client, partner);
    await paidOnKhalti(order.orderRef);
    khalti.health = 'down';
    await cancel(order.orderRef);
    const refund = await refundOf(order.orderRef);
    // Twenty tries is about half a day of back-off.
    await server.orm.em.fork().nativeUpdate(Refund, { refundRef: refund.refundRef }, { tries: 20 });
    await server.refunds.runOnce();
    const waiting = await refundOf(order.orderRef);
    expect(waiting).toMatchObject({ status: 'PENDING', tries: 21 });
    expect(waiting.nextTryAt!.getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    expect(refundRetriesExhausted(21, 3)).toBe(false);
    expect(refundRetriesExhausted(90, 3)).toBe(true);
  });
});

describe('after every refund scenario', () => {
  it('the invariant checker finds 0 violations on this database', async () => {
    const { stdout } = await run(process.execPath, [path.resolve(__dirname, '../../scripts/check-invariants.mjs')], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    });
    expect(stdout).toContain('invariants: 0 violations');
  });
});
