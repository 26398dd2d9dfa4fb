import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Order } from '../../src/modules/orders/entities/order';
import { AuditEntry } from '../../src/modules/orders/entities/audit-entry';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { refundWrites } from '../../src/modules/payments/refund-writes';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { confirmRefund, retryRefund } from '../../src/modules/refunds/refund-operations';
import { watchDueAttempts } from '../../src/modules/payments/payment-watch';
import { recordPartialReversal } from '../../src/modules/refunds/partial-reversal';
import { executeDueRefunds, lockShareForRefunds, moveRefund } from '../../src/modules/refunds';
import type { RefundGateway } from '../../src/modules/refunds/refund-deps';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { deliverReturn, khaltiCheckout } from '../support/provider-browser';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Decision 0091 (issue 52, items 1, 7 and 10): every refund of an order's share of a payment fits
 * in what the share's other refunds not FAILED (PENDING, MANUAL, SUCCEEDED alike) left of it; a
 * cancellation after a partial reversal at the provider refunds what is left; the operator
 * confirms the amount actually given back; and the share's refund lock makes the operator, the
 * payment watch and the executor record one refund once. The three sequences of the review
 * (refunds of 1.5 times a share recorded SUCCEEDED) come first.
 */
let partner: TestPartner;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const run = promisify(execFile);
const { server, client, databaseUrl } = useTestServer({
  ownDatabase: 'share_left',
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
  partner = await newPartner(server, client, { name: 'Share Left Treks Pvt. Ltd.' });
  server.payments.kickRefunds = undefined;
});
afterAll(() => Promise.all([khalti?.stop(), esewa?.stop()]));
afterEach(() => {
  khalti.health = 'up';
});

const OPERATOR = 'operator-cli:test';

const cancel = (orderRef: string) =>
  client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${encodeURIComponent(orderRef)}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
  );

async function paidOnKhalti(orderRef: string) {
  const started = (await pay(client, partner, orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body.data;
  expectStatus(await deliverReturn(client, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
  return { started, simulated: khalti.byOrder(started.paymentRef) };
}

/** The payment watch, run as if `hours` after the capture (it looks at paid payments for reversals). */
async function watchAfter(paymentRef: string, hours: number) {
  const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef });
  await watchDueAttempts(
    server.orm.em.fork(),
    server.payments,
    new Date(attempt.completedAt!.getTime() + hours * 3600_000),
  );
}

const refundsOf = (orderRef: string) =>
  server.orm.em.fork().find(Refund, { order: { orderRef } }, { orderBy: { createdAt: 'asc' } });

/** What the share's refunds hold of it (SUCCEEDED, PENDING, MANUAL) and what of it is recorded SUCCEEDED. */
async function held(orderRef: string) {
  const refunds = await refundsOf(orderRef);
  const sum = (statuses: string[]) =>
    refunds.filter((refund) => statuses.includes(refund.status)).reduce((total, refund) => total + refund.amount, 0);
  return { holding: sum(['SUCCEEDED', 'PENDING', 'MANUAL']), succeeded: sum(['SUCCEEDED']) };
}

/** The amounts partners were told went back for this order (refund.succeeded). */
async function toldBack(orderRef: string): Promise<number> {
  const events = (await server.orm.em.fork().find(WebhookEvent, { type: 'refund.succeeded' })).filter(
    (event) => (event.payload as { data: { orderRef?: string } }).data.orderRef === orderRef,
  );
  return events.reduce(
    (sum, event) =>
      sum + Math.round(Number((event.payload as { data: { amount: string | number } }).data.amount) * 100),
    0,
  );
}

describe('a cancellation after a partial reversal at the provider refunds what is left (issue 52, item 1)', () => {
  it('(a) Khalti portal reversal seen by the watch, recorded by the operator, then a partner cancellation: the MANUAL refund is what is left, never the whole share again', async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    const share = simulated.amount;
    khalti.refundInPortal(simulated.pidx, 'partial');
    const reversed = simulated.refunded;
    await watchAfter(started.paymentRef, 2);
    await recordPartialReversal(
      server.orm.em.fork(),
      { refundWrites },
      {
        paymentRef: started.paymentRef,
        orderRef: order.orderRef,
        amount: reversed,
        note: 'KHALTI-PORTAL-A',
        actor: OPERATOR,
      },
    );

    const answer = await cancel(order.orderRef);
    expectStatus(answer, 200);
    expect(answer.body.data.refund).toMatchObject({ status: 'MANUAL', amount: (share - reversed) / 100 });
    const [, manual] = await refundsOf(order.orderRef);
    // The operator refunds what is left in the portal, and confirms it.
    khalti.refundInPortal(simulated.pidx, 'full');
    await confirmRefund(server.orm.em.fork(), { refundWrites }, manual!.refundRef, 'KHALTI-PORTAL-A2', OPERATOR);

    expect(await held(order.orderRef)).toEqual({ holding: share, succeeded: share });
    expect(simulated.refunded).toBe(share);
    expect(await toldBack(order.orderRef)).toBe(share);
  });

  it('(b) the partner cancels before the operator records the reversal: the reversal cannot be recorded beside the MANUAL refund holding the share; confirm --amount records what the operator gave back, then the reversal fits', async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    const share = simulated.amount;
    khalti.refundInPortal(simulated.pidx, 'partial');
    const reversed = simulated.refunded;
    await watchAfter(started.paymentRef, 2);
    const answer = await cancel(order.orderRef);
    expect(answer.body.data.refund).toMatchObject({ status: 'MANUAL' });
    const [manual] = await refundsOf(order.orderRef);

    const seen = {
      paymentRef: started.paymentRef,
      orderRef: order.orderRef,
      amount: reversed,
      note: 'KHALTI-PORTAL-B',
      actor: OPERATOR,
    };
    await expect(recordPartialReversal(server.orm.em.fork(), { refundWrites }, seen)).rejects.toThrow(
      new RegExp(`${manual!.refundRef} MANUAL holds the rest`),
    );
    // The operator refunds what the portal shows is left, and says how much.
    khalti.refundInPortal(simulated.pidx, 'full');
    await expect(
      confirmRefund(
        server.orm.em.fork(),
        { refundWrites },
        manual!.refundRef,
        'KHALTI-PORTAL-B2',
        OPERATOR,
        new Date(),
        share + 1,
      ),
    ).rejects.toThrow(/does not fit in what its share has left/);
    const confirmed = await confirmRefund(
      server.orm.em.fork(),
      { refundWrites },
      manual!.refundRef,
      'KHALTI-PORTAL-B2',
      OPERATOR,
      new Date(),
      share - reversed,
    );
    expect(confirmed).toMatchObject({ status: 'SUCCEEDED', amount: share - reversed });
    await recordPartialReversal(server.orm.em.fork(), { refundWrites }, seen);

    expect(await held(order.orderRef)).toEqual({ holding: share, succeeded: share });
    expect(simulated.refunded).toBe(share);
    expect(await toldBack(order.orderRef)).toBe(share);
  });

  it('(c) the operator follows docs/payment-providers.md to the letter (records the reversal, refunds what is left in the portal) and the watch records it: the share, once', async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    const share = simulated.amount;
    khalti.refundInPortal(simulated.pidx, 'partial');
    const reversed = simulated.refunded;
    await watchAfter(started.paymentRef, 2);
    await recordPartialReversal(
      server.orm.em.fork(),
      { refundWrites },
      {
        paymentRef: started.paymentRef,
        orderRef: order.orderRef,
        amount: reversed,
        note: 'KHALTI-PORTAL-C',
        actor: OPERATOR,
      },
    );
    expect((await cancel(order.orderRef)).body.data.refund).toMatchObject({ status: 'MANUAL' });
    // "the operator checks the portal and refunds what is left": Khalti then reads Refunded, and the watch sees it.
    khalti.refundInPortal(simulated.pidx, 'full');
    await watchAfter(started.paymentRef, 5 * 24);

    const refunds = await refundsOf(order.orderRef);
    expect(refunds.map((refund) => [refund.cause, refund.status])).toEqual([
      ['PROVIDER_REVERSAL', 'SUCCEEDED'],
      ['CANCELLATION', 'SUCCEEDED'],
    ]);
    expect(await held(order.orderRef)).toEqual({ holding: share, succeeded: share });
    expect(simulated.refunded).toBe(share);
    expect(await toldBack(order.orderRef)).toBe(share);
  });

  it('keeps the fee from what is left after the free look: the refund is the share less the reversal less the fee', async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    const share = simulated.amount;
    khalti.refundInPortal(simulated.pidx, 'partial');
    const reversed = simulated.refunded;
    await watchAfter(started.paymentRef, 2);
    await recordPartialReversal(
      server.orm.em.fork(),
      { refundWrites },
      {
        paymentRef: started.paymentRef,
        orderRef: order.orderRef,
        amount: reversed,
        note: 'KHALTI-PORTAL-FEE',
        actor: OPERATOR,
      },
    );
    await server.orm.em
      .fork()
      .nativeUpdate(Order, { id: order.orderId }, { paidAt: new Date(Date.now() - 30 * 86_400_000) });
    const preview = await client.op(
      'previewOrderCancellation',
      'POST',
      `${ORDERS}/${encodeURIComponent(order.orderRef)}/cancellation/preview`,
      undefined,
      { token: partner.token },
    );
    expectStatus(preview, 200);
    const fee = share / 10;
    expect(preview.body.data).toMatchObject({
      rule: 'CANCELLATION_FEE',
      refundAmount: (share - reversed - fee) / 100,
      cancellationFee: fee / 100,
    });
    expect((await cancel(order.orderRef)).body.data.refund).toMatchObject({ amount: (share - reversed - fee) / 100 });
  });

  it('refuses to retry a FAILED refund that no longer fits: a reversal recorded meanwhile holds part of its share', async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    await cancel(order.orderRef);
    khalti.setStatus(simulated.pidx, 'Expired');
    await server.refunds.runOnce();
    const [failed] = await refundsOf(order.orderRef);
    expect(failed!.status).toBe('FAILED');
    khalti.setStatus(simulated.pidx, 'Completed');
    khalti.refundInPortal(simulated.pidx, 'partial');
    await watchAfter(started.paymentRef, 2);
    // The FAILED refund holds nothing, so the reversal fits; the FAILED one then does not.
    await recordPartialReversal(
      server.orm.em.fork(),
      { refundWrites },
      {
        paymentRef: started.paymentRef,
        orderRef: order.orderRef,
        amount: simulated.refunded,
        note: 'KHALTI-PORTAL-R',
        actor: OPERATOR,
      },
    );
    await expect(retryRefund(server.orm.em.fork(), { refundWrites }, failed!.refundRef, OPERATOR)).rejects.toThrow(
      /does not fit in what its share has left/,
    );
    await expect(
      confirmRefund(server.orm.em.fork(), { refundWrites }, failed!.refundRef, 'BANK-1', OPERATOR),
    ).rejects.toThrow(/does not fit/);
    // What is left is what the operator gives back by hand, and says so: the share is then refunded, once.
    const left = simulated.amount - simulated.refunded;
    khalti.refundInPortal(simulated.pidx, 'full');
    await confirmRefund(
      server.orm.em.fork(),
      { refundWrites },
      failed!.refundRef,
      'BANK-1',
      OPERATOR,
      new Date(),
      left,
    );
    expect(await held(order.orderRef)).toEqual({ holding: simulated.amount, succeeded: simulated.amount });
  });
});

describe("a refund that gives up with a try's outcome unknown (issue 52, item 7)", () => {
  it('becomes MANUAL ("check the portal"), never FAILED, after REFUND_RETRY_DAYS', async () => {
    const order = await placeOrder(server, client, partner);
    await paidOnKhalti(order.orderRef);
    khalti.health = 'down';
    await cancel(order.orderRef);
    const [refund] = await refundsOf(order.orderRef);
    // Ninety tries is past three days of back-off; an earlier try's answer was lost.
    await server.orm.em
      .fork()
      .nativeUpdate(Refund, { refundRef: refund!.refundRef }, { tries: 90, outcomeUnknown: true });
    await server.refunds.runOnce();
    const [after] = await refundsOf(order.orderRef);
    expect(after).toMatchObject({ status: 'MANUAL', lastError: expect.stringMatching(/check the provider's portal/) });
  });

  it('stays FAILED when every try is known to have sent nothing (each failed at the lookup)', async () => {
    const order = await placeOrder(server, client, partner);
    await paidOnKhalti(order.orderRef);
    khalti.health = 'down';
    await cancel(order.orderRef);
    const [refund] = await refundsOf(order.orderRef);
    await server.orm.em.fork().nativeUpdate(Refund, { refundRef: refund!.refundRef }, { tries: 90 });
    await server.refunds.runOnce();
    expect((await refundsOf(order.orderRef))[0]).toMatchObject({ status: 'FAILED' });
  });
});

describe("the executor's claim while its refund call is at Khalti (issue 52, item 3)", () => {
  it('runs past the worst try of the slowest allowed settings (5 lookup attempts of 12 s): no second process may claim the refund meanwhile', async () => {
    const order = await placeOrder(server, client, partner);
    await paidOnKhalti(order.orderRef);
    khalti.health = 'down';
    await cancel(order.orderRef);
    const [refund] = await refundsOf(order.orderRef);
    await server.orm.em.fork().nativeUpdate(Refund, { refundRef: refund!.refundRef }, { nextTryAt: new Date(0) });
    let leaseLeftMs = 0;
    // A Khalti adapter that, at the moment of its call, reads how long the claim still holds the refund.
    const atKhalti: RefundGateway = {
      provider: 'khalti',
      refunds: 'API',
      refund: async () => {
        const claimed = await server.orm.em.fork().findOneOrFail(Refund, refund!.id);
        leaseLeftMs = claimed.claimedUntil!.getTime() - Date.now();
        return { kind: 'MANUAL', why: 'seen by the test' };
      },
    };
    await executeDueRefunds(server.orm.em.fork(), {
      ...server.payments,
      payments: { ...server.payments.payments, providerLookupAttempts: 5, providerTimeoutMs: 12_000 },
      gateways: { get: () => atKhalti, of: () => atKhalti },
    });
    // Khalti's worst try with those settings: 2 lookups of 5 attempts timing out at 12 s, their pauses, the refund call.
    expect(leaseLeftMs).toBeGreaterThan(2 * (5 * 12_000 + 1000) + 12_000);
  });
});

describe("the share's refund lock (issue 52, item 10)", () => {
  it("makes the operator's confirm wait while the payment watch holds the share, then find the refund recorded: one SUCCEEDED, one event", async () => {
    const order = await placeOrder(server, client, partner);
    const { started, simulated } = await paidOnKhalti(order.orderRef);
    khalti.refundInPortal(simulated.pidx, 'partial');
    await watchAfter(started.paymentRef, 2);
    await cancel(order.orderRef);
    const [manual] = await refundsOf(order.orderRef);
    expect(manual!.status).toBe('MANUAL');

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let taken!: () => void;
    const lockTaken = new Promise<void>((resolve) => (taken = resolve));
    // One connection holds the lock as the watch does: it reads the refund MANUAL, and records it found at the provider a moment later.
    const watch = server.orm.em.fork().transactional(async (tx) => {
      await lockShareForRefunds(tx, { attemptId: manual!.attempt.id, orderId: manual!.order.id });
      const refund = await tx.findOneOrFail(Refund, manual!.id, { populate: ['attempt', 'order'] });
      taken();
      await released;
      await moveRefund(
        tx,
        refund,
        {
          step: 'FOUND_AT_PROVIDER',
          actor: 'reversal-watch',
          at: new Date(),
          note: 'found at the provider (test)',
        },
        { refundWrites },
      );
      await tx.flush();
    });
    await lockTaken;
    let settled = false;
    const confirm = confirmRefund(
      server.orm.em.fork(),
      { refundWrites },
      manual!.refundRef,
      'KHALTI-PORTAL-L',
      OPERATOR,
    ).finally(() => {
      settled = true;
    });
    confirm.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const waited = !settled;
    release();
    await watch;
    expect(waited).toBe(true);
    await expect(confirm).rejects.toThrow(/already SUCCEEDED/);

    const [after] = await refundsOf(order.orderRef);
    expect(after).toMatchObject({ status: 'SUCCEEDED' });
    const entries = await server.orm.em.fork().find(AuditEntry, { order: manual!.order.id });
    expect(
      entries.filter(
        (entry) =>
          entry.details.refundRef === manual!.refundRef &&
          ['REFUND_SUCCEEDED', 'REFUND_CONFIRMED'].includes(entry.action),
      ),
    ).toHaveLength(1);
    expect(await toldBack(order.orderRef)).toBe(manual!.amount);
  });
});

describe('after every scenario above', () => {
  it('the invariant checker finds 0 violations: no share holds more refunds than it captured', async () => {
    const { stdout } = await run(process.execPath, [path.resolve(__dirname, '../../scripts/check-invariants.mjs')], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    }).catch((error: { stdout?: string; message?: string }) => ({ stdout: error.stdout ?? error.message ?? '' }));
    expect(stdout).toContain('invariants: 0 violations');
  });
});
