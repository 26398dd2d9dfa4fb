import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { CommissionEntry } from '../../src/modules/commissions/entities/commission-entry';
import { PaymentAttemptOrder } from '../../src/modules/payments/entities/payment-attempt-order';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { refundWrites } from '../../src/modules/payments/refund-writes';
import { OrderAmendment } from '../../src/modules/orders/entities/order-amendment';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { auditEntriesOf } from '../../src/modules/orders/audit-log';
import { refundTopUp } from '../../src/modules/payments/top-up-refund';
import { confirmRefund } from '../../src/modules/refunds/refund-operations';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { csvRecords } from '../support/csv';
import {
  decideSandboxRefund,
  groupPayPath,
  pay,
  paymentStatus,
  placeGroup,
  placeOrder,
  RETURN_URL,
  type PlacedOrder,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * The money after an extension (decision record 0099): the top-up
 * earns commission when captured; a cancellation gives back every payment of the order, each
 * through the provider that took it, with the fee rule applied to the whole. client.op checks
 * every body against the spec's schema for its status. The order: TRK-STD-3000, 7 days for
 * 4,500.00; three days more cost 1,050.00; the partner earns 10 %.
 */
const CLOCK = '/api/external/v1/sandbox/clock';
// A database of its own: the invariant checker at its end reads every row.
const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'extension_money' });
const CHECKER = path.resolve(__dirname, '../../scripts/check-invariants.mjs');
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Long Trek Money Adventures Pvt. Ltd.' });
});

afterEach(async () => {
  await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
});

const capture = (paymentRef: string) =>
  client.op(
    'setSandboxPaymentOutcome',
    'POST',
    `/api/external/v1/sandbox/payments/${paymentRef}/outcome`,
    { outcome: 'CAPTURED' },
    { token: agency.token },
  );
const cancel = (orderRef: string) =>
  client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${orderRef}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );

/** A card-paid order extended by three days before its cover starts, the top-up paid through `gateway`. */
async function extendedOrder(
  gateway: 'card_gateway' | 'wallet_gateway',
): Promise<PlacedOrder & { paymentRef: string; topUpRef: string }> {
  const order = await placeOrder(server, client, agency);
  const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
  expectStatus(await capture(started.body.data.paymentRef), 200);
  const extended = await client.op(
    'extendOrder',
    'POST',
    `${ORDERS}/${order.orderRef}/extension`,
    { extraDays: 3, gateway, returnUrl: RETURN_URL },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );
  expectStatus(extended, 200);
  expect(extended.body.data.amountDue).toBe(1050);
  const topUpRef = extended.body.data.paymentRef as string;
  expectStatus(await capture(topUpRef), 200);
  return { ...order, paymentRef: started.body.data.paymentRef, topUpRef };
}

const commissionOf = async (orderId: string, paymentRef: string) =>
  (await server.orm.em.fork().find(CommissionEntry, { order: orderId, paymentRef }, { orderBy: { createdAt: 'asc' } }))
    .map((entry) => [entry.kind, entry.base, entry.amount])
    .sort();

/** Each refund of the order with the payment it gives back: [paymentRef, refundRef, amount, fee]. */
const refundsOf = async (orderId: string) =>
  (await server.orm.em.fork().find(Refund, { order: orderId }, { populate: ['attempt'] }))
    .map((refund) => [refund.attempt.paymentRef, refund.refundRef, refund.amount, refund.fee])
    .sort();

const settlementsOf = async (orderId: string) =>
  (await server.orm.em.fork().find(PaymentAttemptOrder, { order: orderId }, { populate: ['attempt'] }))
    .map((line) => [line.attempt.paymentRef, line.settlement])
    .sort();

describe('the money of an extended order', () => {
  it('when the top-up is captured, then commission is EARNED on all of it (it is premium only)', async () => {
    const order = await extendedOrder('card_gateway');
    expect(await commissionOf(order.orderId, order.topUpRef)).toEqual([['EARNED', 105_000, 10_500]]);
    expect(await commissionOf(order.orderId, order.paymentRef)).toEqual([['EARNED', 450_000, 45_000]]);
  });

  it("when the order carries an added service, then the top-up's base is still all of it: the difference is premium only (the service keeps its price)", async () => {
    const order = await placeOrder(server, client, agency, {
      addedServices: [{ name: 'Porter for the pass', price: 1500, quantity: 1 }],
    });
    expect(order.totalAmount).toBe(6000);
    const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(await capture(started.body.data.paymentRef), 200);
    const extended = await client.op(
      'extendOrder',
      'POST',
      `${ORDERS}/${order.orderRef}/extension`,
      { extraDays: 3, gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(extended, 200);
    expect(extended.body.data.amountDue).toBe(1050);
    expectStatus(await capture(extended.body.data.paymentRef), 200);
    // The order's own payment earns on its premium part (4,500.00 of 6,000.00); the top-up on all of its 1,050.00.
    expect(await commissionOf(order.orderId, started.body.data.paymentRef)).toEqual([['EARNED', 450_000, 45_000]]);
    expect(await commissionOf(order.orderId, extended.body.data.paymentRef)).toEqual([['EARNED', 105_000, 10_500]]);
  });

  it('when the top-up is captured, then the order detail, the order book, its CSV and payment-status show it beside the payment that paid the order', async () => {
    const order = await extendedOrder('card_gateway');
    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    expectStatus(detail, 200);
    expect(detail.body.data).toMatchObject({ topUpAmount: 1050, pricing: { totalAmount: 4500 } });
    const book = await client.op('listOrders', 'GET', `${ORDERS}?search=${order.orderRef}`, undefined, {
      token: agency.token,
    });
    expectStatus(book, 200);
    expect(book.body.data.content).toEqual([expect.objectContaining({ totalAmount: 4500, topUpAmount: 1050 })]);
    const csv = await client.op('listOrders', 'GET', `${ORDERS}?search=${order.orderRef}`, undefined, {
      token: agency.token,
      headers: { accept: 'text/csv' },
    });
    expectStatus(csv, 200);
    expect(csvRecords(csv.body).records).toEqual([
      expect.objectContaining({ orderRef: order.orderRef, totalAmount: '4500.00', topUpAmount: '1050.00' }),
    ]);
    const status = await paymentStatus(client, agency, order.orderRef);
    expectStatus(status, 200);
    expect(status.body.data).toMatchObject({
      paymentRef: order.paymentRef,
      paymentStatus: 'SUCCESS',
      amount: 4500,
      topUps: [
        {
          paymentRef: order.topUpRef,
          amendmentRef: `${order.orderRef}-EXT-1`,
          paymentStatus: 'SUCCESS',
          paymentMethod: 'CARD_GATEWAY',
          amount: 1050,
          currency: 'NPR',
        },
      ],
    });
    // An order never extended shows none.
    const plain = await placeOrder(server, client, agency);
    expect((await paymentStatus(client, agency, plain.orderRef)).body.data.topUps).toBeUndefined();
  });

  it('when an extended order is cancelled in its free look, then both payments go back in full, each through the provider that took it, and the commission on each is reversed once it succeeded', async () => {
    const order = await extendedOrder('wallet_gateway');
    const answer = await cancel(order.orderRef);
    expectStatus(answer, 200);
    const { refund, topUpRefunds } = answer.body.data;
    expect(refund).toMatchObject({
      gateway: 'CARD_GATEWAY',
      amount: 4500,
      cancellationFee: 0,
    });
    expect(topUpRefunds).toHaveLength(1);
    // The wallet's provider has no refund API: the operator gives it back and confirms it.
    expect(topUpRefunds[0]).toMatchObject({
      gateway: 'WALLET_GATEWAY',
      amount: 1050,
      cancellationFee: 0,
      status: 'MANUAL',
    });
    expect(await refundsOf(order.orderId)).toEqual(
      [
        [order.paymentRef, refund.refundRef, 450_000, 0],
        [order.topUpRef, topUpRefunds[0].refundRef, 105_000, 0],
      ].sort(),
    );
    const audit = await auditEntriesOf(server.orm.em.fork(), order.orderId);
    expect(audit.find((entry) => entry.action === 'ORDER_CANCELLED')?.details).toMatchObject({
      refundRef: refund.refundRef,
      topUpRefundRefs: [topUpRefunds[0].refundRef],
      refundAmount: '5550.00',
    });
    expect(await settlementsOf(order.orderId)).toEqual(
      [
        [order.paymentRef, 'REFUND_PENDING'],
        [order.topUpRef, 'REFUND_PENDING'],
      ].sort(),
    );

    await decideSandboxRefund(client, agency, refund.refundRef);
    await confirmRefund(
      server.orm.em,
      { refundWrites },
      topUpRefunds[0].refundRef,
      'ESEWA-RFD-123',
      'operator-cli:test',
    );
    expect(await commissionOf(order.orderId, order.topUpRef)).toEqual([
      ['EARNED', 105_000, 10_500],
      ['REVERSED', 105_000, -10_500],
    ]);
    expect(await commissionOf(order.orderId, order.paymentRef)).toEqual([
      ['EARNED', 450_000, 45_000],
      ['REVERSED', 450_000, -45_000],
    ]);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      paymentRef: order.paymentRef,
      paymentStatus: 'REFUNDED',
      topUps: [{ paymentRef: order.topUpRef, paymentStatus: 'REFUNDED', paymentMethod: 'WALLET_GATEWAY' }],
    });
    // The order detail shows both refunds, now SUCCEEDED.
    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    expectStatus(detail, 200);
    expect(detail.body.data.cancellation).toMatchObject({
      refund: { refundRef: refund.refundRef, status: 'SUCCEEDED', amount: 4500 },
      topUpRefunds: [{ refundRef: topUpRefunds[0].refundRef, status: 'SUCCEEDED', amount: 1050 }],
    });
  });

  it("when an extended order is cancelled after its free look, then the fee is the whole's (10 % of 5,550.00), kept from the order's own payment, and the top-up goes back whole", async () => {
    const order = await extendedOrder('card_gateway');
    // Fifteen days after the payment, still before the cover starts (a month ahead).
    expectStatus(
      await client.op(
        'setSandboxClock',
        'PUT',
        CLOCK,
        { today: addDays(kathmanduToday(), 15) },
        { token: agency.token },
      ),
      200,
    );
    const preview = await client.op(
      'previewOrderCancellation',
      'POST',
      `${ORDERS}/${order.orderRef}/cancellation/preview`,
      undefined,
      { token: agency.token },
    );
    expectStatus(preview, 200);
    expect(preview.body.data).toMatchObject({ rule: 'CANCELLATION_FEE', refundAmount: 4995, cancellationFee: 555 });

    const answer = await cancel(order.orderRef);
    expectStatus(answer, 200);
    const { refund, topUpRefunds } = answer.body.data;
    expect(refund).toMatchObject({ amount: 3945, cancellationFee: 555 });
    expect(topUpRefunds).toEqual([expect.objectContaining({ amount: 1050, cancellationFee: 0 })]);
    expect(await refundsOf(order.orderId)).toEqual(
      [
        [order.paymentRef, refund.refundRef, 394_500, 55_500],
        [order.topUpRef, topUpRefunds[0].refundRef, 105_000, 0],
      ].sort(),
    );
  });

  it("when the operator gives back a top-up on its own, then it goes back through its provider, its commission is reversed, the extended cover stays, and the order's cancellation later gives back only its own payment", async () => {
    const order = await extendedOrder('card_gateway');
    const deps = { gateways: server.gateways.registry, refundWrites };
    // Only a top-up goes back this way: the order's own payment goes back with its cancellation.
    await expect(
      refundTopUp(server.orm.em, order.paymentRef, { actor: 'operator-cli:test', note: 'x' }, deps),
    ).rejects.toThrow(/not an extension's top-up/);
    const { refund, amendment } = await refundTopUp(
      server.orm.em,
      order.topUpRef,
      { actor: 'operator-cli:test', note: 'weather extension granted free afterwards' },
      deps,
    );
    expect(refund).toMatchObject({ cause: 'TOP_UP_REFUND', amount: 105_000, fee: 0, gateway: 'card_gateway' });
    expect(amendment.status).toBe('APPLIED');
    // Once is all: nothing of it is left to give back.
    await expect(
      refundTopUp(server.orm.em, order.topUpRef, { actor: 'operator-cli:test', note: 'again' }, deps),
    ).rejects.toThrow(/nothing of it is left/);
    await decideSandboxRefund(client, agency, refund.refundRef);
    expect(await commissionOf(order.orderId, order.topUpRef)).toEqual([
      ['EARNED', 105_000, 10_500],
      ['REVERSED', 105_000, -10_500],
    ]);
    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    expectStatus(detail, 200);
    expect(detail.body.data).toMatchObject({ status: 'PAID', durationDays: 10 });
    const audit = await auditEntriesOf(server.orm.em.fork(), order.orderId);
    expect(audit.filter((entry) => entry.action === 'TOP_UP_REFUNDED')).toEqual([
      expect.objectContaining({
        actor: 'operator-cli:test',
        details: expect.objectContaining({ paymentRef: order.topUpRef, refundRef: refund.refundRef }),
      }),
    ]);

    const cancelled = await cancel(order.orderRef);
    expectStatus(cancelled, 200);
    expect(cancelled.body.data.refund).toMatchObject({ amount: 4500 });
    expect(cancelled.body.data.topUpRefunds).toEqual([]);
  });

  it("when one member of a group paid by one group payment is extended, then its top-up is its own; cancelled, it gets back its share of the group payment and its top-up, the other members' shares untouched", async () => {
    const { groupRef, orders } = await placeGroup(server, client, agency, 2);
    const [member, other] = orders as [PlacedOrder, PlacedOrder];
    const started = await client.op(
      'payGroup',
      'POST',
      groupPayPath(groupRef),
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(started, 200);
    const groupPaymentRef = started.body.data.paymentRef as string;
    expectStatus(await capture(groupPaymentRef), 200);
    const extended = await client.op(
      'extendOrder',
      'POST',
      `${ORDERS}/${member.orderRef}/extension`,
      { extraDays: 3, gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(extended, 200);
    // The member's own premium (4,500.00 of the group's 9,000.00) is what it paid.
    expect(extended.body.data).toMatchObject({ amountDue: 1050, newPremium: 5550 });
    const topUpRef = extended.body.data.paymentRef as string;
    expectStatus(await capture(topUpRef), 200);
    expect((await paymentStatus(client, agency, member.orderRef)).body.data).toMatchObject({
      paymentRef: groupPaymentRef,
      groupRef,
      topUps: [{ paymentRef: topUpRef, paymentStatus: 'SUCCESS', amount: 1050 }],
    });

    const answer = await cancel(member.orderRef);
    expectStatus(answer, 200);
    expect(answer.body.data.refund).toMatchObject({ amount: 4500 });
    expect(answer.body.data.topUpRefunds).toEqual([expect.objectContaining({ amount: 1050 })]);
    expect(await settlementsOf(member.orderId)).toEqual(
      [
        [groupPaymentRef, 'REFUND_PENDING'],
        [topUpRef, 'REFUND_PENDING'],
      ].sort(),
    );
    expect(await settlementsOf(other.orderId)).toEqual([[groupPaymentRef, 'PAID']]);
  });

  it("when an order whose extension awaits its top-up is cancelled, then the top-up's checkout is closed, the extension expires with it, and only the order's own payment goes back", async () => {
    const order = await placeOrder(server, client, agency);
    const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(await capture(started.body.data.paymentRef), 200);
    const extended = await client.op(
      'extendOrder',
      'POST',
      `${ORDERS}/${order.orderRef}/extension`,
      { extraDays: 3, gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(extended, 200);
    const { paymentRef: topUpRef, amendmentRef } = extended.body.data;

    const answer = await cancel(order.orderRef);
    expectStatus(answer, 200);
    expect(answer.body.data.topUpRefunds).toEqual([]);
    const em = server.orm.em.fork();
    expect((await em.findOneOrFail(PaymentAttempt, { paymentRef: topUpRef })).status).toBe('CANCELLED');
    expect((await em.findOneOrFail(OrderAmendment, { amendmentRef })).status).toBe('EXPIRED');
    expect(await refundsOf(order.orderId)).toEqual([
      [started.body.data.paymentRef, answer.body.data.refund.refundRef, 450_000, 0],
    ]);
  });

  it('finds nothing wrong afterwards (the invariant checker counts the top-ups)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CHECKER], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    });
    expect(stdout).toContain('invariants: 0 violations');
  });
});
