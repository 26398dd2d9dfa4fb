import { Order, OrderStatus } from '../../src/modules/orders/entities/order';
import { watchDueAttempts } from '../../src/modules/payments/payment-watch';
import { first } from '../support/elements';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  DECLINE_CARD,
  ledgerOf,
  pay,
  paymentStatus,
  placeOrder,
  RETURN_URL,
  submitCheckout,
} from '../support/payment-fixtures';
import { startTestServer, useTestServer } from '../support/test-server';
import { eventually } from '../support/eventually';
import { createOwnDatabase, type OwnDatabase } from '../support/own-database';
import { expectStatus } from '../support/expect-status';

// Two servers on one database: `patient` keeps the default PAYMENT_RECONCILE_AFTER_SECONDS (120)
// for its payment watch, `eager` sets it to 0; payment-status asks the gateway about an INITIATED
// attempt on either. Neither runs the periodic job
// except where a test starts its own. The database is this file's own: a reconciliation pass
// settles every due attempt it holds, and on the run's shared one that is every other file's too
// (slow, and not this file's to settle).
let database: OwnDatabase;
beforeAll(async () => {
  database = await createOwnDatabase('reconciliation');
});
const ownDatabase = () => ({ DATABASE_URL: database.url });
const { server: patient, client: patientClient } = useTestServer({
  env: () => ({ ...ownDatabase(), PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' }),
});
const { server: eager, client: eagerClient } = useTestServer({
  env: () => ({ ...ownDatabase(), PAYMENT_RECONCILE_INTERVAL_SECONDS: '0', PAYMENT_RECONCILE_AFTER_SECONDS: '0' }),
});
// After the servers' own afterAll hooks (declared above), which stop them.
afterAll(() => database?.drop());
let agency: TestPartner;
/** The default PAYMENT_STATUS_LOOKUP_SECONDS, which both servers keep. */
const STATUS_LOOKUP_MS = 5_000;

beforeAll(async () => {
  agency = await newPartner(patient, patientClient);
});

/** A customer who paid at the gateway and closed the tab: the gateway decided, no callback ever arrives. */
async function paidButNeverReturned(form: Record<string, string> = APPROVE_CARD, gateway = 'card_gateway') {
  const order = await placeOrder(patient, patientClient, agency);
  const started = (await pay(patientClient, agency, order.orderRef, { gateway, returnUrl: RETURN_URL })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, form);
  expectStatus(checkout, 303);
  return { order, started };
}

describe('reconciliation of attempts left INITIATED', () => {
  it('when the customer paid but never came back, then the next payment-status call asks the gateway and reports PAID, without waiting PAYMENT_RECONCILE_AFTER_SECONDS', async () => {
    const { order, started } = await paidButNeverReturned();
    // `patient` keeps the watch's 120 seconds: payment-status asks the gateway anyway.
    const response = await paymentStatus(patientClient, agency, order.orderRef);
    expect(response.body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: started.paymentRef,
      amount: 4500,
    });
    expect(response.body.data.completedAt).toEqual(expect.any(String));
    expect((await ledgerOf(patient, order.orderId)).successes).toBe(1);
  });

  it('when a checkout is polled while open, then the gateway is asked at most once per attempt in PAYMENT_STATUS_LOOKUP_SECONDS, and a decision made meanwhile shows within it', async () => {
    const order = await placeOrder(patient, patientClient, agency);
    const started = (await pay(patientClient, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    expect((await paymentStatus(patientClient, agency, order.orderRef)).body.data.paymentStatus).toBe('INITIATED');
    const decidedAt = Date.now();
    expectStatus(await submitCheckout(started.paymentUrl, APPROVE_CARD), 303);
    // The gateway's "not decided yet" of a moment ago is still the answer: no second provider call.
    expect((await paymentStatus(patientClient, agency, order.orderRef)).body.data.paymentStatus).toBe('INITIATED');
    const truth = await eventually(
      async () => (await paymentStatus(patientClient, agency, order.orderRef)).body.data.paymentStatus,
      (status) => status === 'SUCCESS',
      { timeoutMs: STATUS_LOOKUP_MS + 3_000, intervalMs: 250 },
    );
    expect(truth).toBe('SUCCESS');
    expect(Date.now() - decidedAt).toBeLessThan(STATUS_LOOKUP_MS + 1_500);
  });

  it('when the declined customer never came back, then the status reports FAILED and the order stays PENDING', async () => {
    const { order } = await paidButNeverReturned(DECLINE_CARD);
    expect((await paymentStatus(eagerClient, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'FAILED',
    });
  });

  it('when the customer comes back after reconciliation already recorded the payment, then the late callback is a replay and changes nothing', async () => {
    const order = await placeOrder(patient, patientClient, agency);
    const started = (
      await pay(patientClient, agency, order.orderRef, { gateway: 'wallet_gateway', returnUrl: RETURN_URL })
    ).body.data;
    const checkout = await submitCheckout(started.paymentUrl, APPROVE_WALLET);
    await paymentStatus(eagerClient, agency, order.orderRef);
    const after = await ledgerOf(patient, order.orderId);
    const late = await patientClient.op('handlePaymentCallback', 'GET', '/api/external/payment/response', undefined, {
      query: Object.fromEntries(checkout.callbackUrl!.searchParams),
    });
    expectStatus(late, 400);
    expect(await ledgerOf(patient, order.orderId)).toEqual(after);
  });

  it('the reconciliation pass settles paid-but-never-returned attempts and expires abandoned ones after PAYMENT_ATTEMPT_TTL_MINUTES', async () => {
    const paid = await paidButNeverReturned(APPROVE_WALLET, 'wallet_gateway');
    const abandoned = await placeOrder(patient, patientClient, agency);
    await pay(patientClient, agency, abandoned.orderRef, { gateway: 'card_gateway' });

    // Now: the paid one is found; the abandoned one is not yet past its 15 minutes.
    await watchDueAttempts(eager.orm.em.fork(), eager.payments, new Date(Date.now() + 121_000));
    expect((await ledgerOf(patient, paid.order.orderId)).orderStatus).toBe('PAID');
    expect(first((await ledgerOf(patient, abandoned.orderId)).attempts, 'the attempts').status).toBe('INITIATED');

    await watchDueAttempts(eager.orm.em.fork(), eager.payments, new Date(Date.now() + 16 * 60_000));
    const expired = await ledgerOf(patient, abandoned.orderId);
    expect(expired.orderStatus).toBe('PENDING');
    expect(expired.attempts[0]).toMatchObject({ status: 'EXPIRED', closedReason: 'EXPIRED' });
    expect((await paymentStatus(patientClient, agency, abandoned.orderRef)).body.data.paymentStatus).toBe('EXPIRED');
  });

  it('when a new key would supersede an attempt the gateway had captured, then the order is settled PAID by it and the new pay is refused (no second charge)', async () => {
    const { order, started } = await paidButNeverReturned();
    const newer = await pay(patientClient, agency, order.orderRef, { gateway: 'card_gateway' });
    expectStatus(newer, 400);
    expect(newer.body.message).toBe(`Order ${order.orderRef} is already PAID and cannot be paid again`);
    const ledger = await ledgerOf(patient, order.orderId);
    expect(ledger.orderStatus).toBe('PAID');
    expect(ledger.attempts).toEqual([
      expect.objectContaining({ paymentRef: started.paymentRef, status: 'SUCCESS', refundAmount: 0 }),
    ]);
  });

  it('the server runs the reconciliation job periodically: a paid order ends PAID with nobody polling', async () => {
    // Background jobs on: the periodic reconciliation pass is what is under test.
    const withJob = await startTestServer(
      { ...ownDatabase(), PAYMENT_RECONCILE_INTERVAL_SECONDS: '1', PAYMENT_RECONCILE_AFTER_SECONDS: '0' },
      undefined,
      { backgroundJobs: true },
    );
    try {
      const { order } = await paidButNeverReturned();
      const statusNow = async () => (await withJob.orm.em.fork().findOneOrFail(Order, order.orderId)).status;
      expect(
        await eventually(statusNow, (status) => status === OrderStatus.Paid, { timeoutMs: 15_000, intervalMs: 250 }),
      ).toBe(OrderStatus.Paid);
    } finally {
      await withJob.stop();
    }
  });
});
