import { randomUUID } from 'node:crypto';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { OperatorRefusal } from '../../src/kernel/operator-refusal';
import { auditEntriesOf } from '../../src/modules/orders/audit-log';
import { Order } from '../../src/modules/orders/entities/order';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { at } from '../support/elements';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  deliverCallback,
  groupPayPath,
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

/** Decision record 0076: an order is payable until the end of its cover's first day (Nepal). */
const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' } });
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Himalayan Trails Pvt. Ltd.' });
});

const today = () => kathmanduToday();
const yesterday = () => addDays(kathmanduToday(), -1);

/** Creation refuses a past departure, so a cover that began yesterday is an order whose days have passed since. */
const startCoverOn = (orderId: string, date: string) =>
  server.orm.em
    .fork()
    .nativeUpdate(
      Order,
      { id: orderId },
      { departureDate: date, coverageStartDate: date, coverageEndDate: addDays(date, 6) },
    );

const payGroup = (groupRef: string, key = randomUUID()) =>
  client.op(
    'payGroup',
    'POST',
    groupPayPath(groupRef),
    { gateway: 'card_gateway', returnUrl: RETURN_URL },
    { token: agency.token, headers: { 'idempotency-key': key } },
  );

describe('POST /orders/{orderRef}/pay after the cover began', () => {
  it('when the cover began yesterday (Nepal date) and the order is unpaid, then 400 says it can no longer be paid and no attempt starts', async () => {
    const order = await placeOrder(server, client, agency);
    await startCoverOn(order.orderId, yesterday());
    const response = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(response, 400);
    expect(response.body.message).toBe(
      `The cover of order ${order.orderRef} started on ${yesterday()} (Nepal date) and it was not paid by the end of that day; it can no longer be paid: book the trip anew`,
    );
    expect((await ledgerOf(server, order.orderId)).attempts).toEqual([]);
  });

  it('when the cover begins today, then the order can still be paid', async () => {
    const order = await placeOrder(server, client, agency);
    await startCoverOn(order.orderId, today());
    const response = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(response, 200);
    await deliverCallback(client, (await submitCheckout(response.body.data.paymentUrl, APPROVE_CARD)).callbackUrl!);
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PAID');
  });

  it('when a checkout opened before the start day is captured after it, then the money is refunded as a late capture (COVER_STARTED) and the order stays unpaid', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body
      .data;
    await startCoverOn(order.orderId, yesterday());

    const callback = await deliverCallback(
      client,
      (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!,
    );

    expectStatus(callback, 303);
    const ledger = await ledgerOf(server, order.orderId);
    expect(ledger).toMatchObject({ orderStatus: 'PENDING', paidAt: null, successes: 0 });
    expect(ledger.attempts).toEqual([
      expect.objectContaining({ paymentRef: started.paymentRef, status: 'REFUND_PENDING', refundAmount: 450_000 }),
    ]);
    const em = server.orm.em.fork();
    expect(await em.count(Refund, { order: order.orderId, cause: 'LATE_CAPTURE', amount: 450_000 })).toBe(1);
    expect(await em.count(PaymentAttempt, { paymentRef: started.paymentRef, refundReason: 'COVER_STARTED' })).toBe(1);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'REFUND_PENDING',
    });
  });
});

describe("POST /orders/groups/{groupRef}/pay after a member's cover began", () => {
  it("when one pending order's cover began yesterday, then the payment leaves it out and names it in leftOut; a replay answers the same", async () => {
    const group = await placeGroup(server, client, agency, 3);
    const late = at(group.orders, 1, 'the group');
    await startCoverOn(late.orderId, yesterday());
    const key = randomUUID();

    const response = await payGroup(group.groupRef, key);

    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      amount: 9000,
      leftOut: [{ orderRef: late.orderRef, reason: 'COVER_STARTED', coverageStartDate: yesterday() }],
    });
    const replay = await payGroup(group.groupRef, key);
    expect(replay.body.data).toEqual(response.body.data);
    await deliverCallback(client, (await submitCheckout(response.body.data.paymentUrl, APPROVE_CARD)).callbackUrl!);
    expect((await ledgerOf(server, late.orderId)).orderStatus).toBe('PENDING');
    expect((await ledgerOf(server, at(group.orders, 0, 'the group').orderId)).orderStatus).toBe('PAID');
  });

  it('when every order is payable, then leftOut is empty', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const response = await payGroup(group.groupRef);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ amount: 9000, leftOut: [] });
  });

  it("when every pending order's cover began before today, then 400 and nothing starts", async () => {
    const group = await placeGroup(server, client, agency, 2);
    for (const order of group.orders) await startCoverOn(order.orderId, yesterday());
    const response = await payGroup(group.groupRef);
    expectStatus(response, 400);
    expect(response.body.message).toMatch(
      new RegExp(`^Group ${group.groupRef} has no order left that can be paid: The cover of order ORD-`),
    );
  });
});

describe('ops order record-cash after the cover began', () => {
  it("is refused after the cover's first day; forced with a note it is recorded, the note and the force kept in the audit entry", async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    await startCoverOn(order.orderId, yesterday());
    const record = (input: { note?: string; forced?: boolean }) =>
      recordCashPayment(server.orm.em.fork(), order.orderRef, { amount: 450_000, ...input }, 'operator-cli:test');

    await expect(record({})).rejects.toThrow(
      new OperatorRefusal(
        `the cover of order ${order.orderRef} started on ${yesterday()} (Nepal date); cash is recorded after that day only with --force and a --note saying when it was paid`,
      ),
    );
    await expect(record({ forced: true })).rejects.toThrow(/--force needs a --note/);
    expect((await ledgerOf(server, order.orderId)).orderStatus).toBe('PENDING');

    const recorded = await record({ forced: true, note: `receipt 4411, paid at the trailhead on ${yesterday()}` });
    expect(recorded.order.status).toBe('PAID');
    const [entry] = await auditEntriesOf(server.orm.em.fork(), order.orderId);
    expect(entry?.details).toMatchObject({
      note: `receipt 4411, paid at the trailhead on ${yesterday()}`,
      forcedAfterCoverStart: true,
    });
  });
});
