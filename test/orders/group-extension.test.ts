import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays } from '../../src/kernel/business-date';
import { declareDisruption } from '../../src/modules/catalogue';
import { CommissionEntry } from '../../src/modules/commissions/entities/commission-entry';
import { auditEntriesOf } from '../../src/modules/orders/audit-log';
import { Order } from '../../src/modules/orders/entities/order';
import { OrderAmendment } from '../../src/modules/orders/entities/order-amendment';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { PaymentAttemptOrder } from '../../src/modules/payments/entities/payment-attempt-order';
import { refundTopUp } from '../../src/modules/payments/top-up-refund';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { expectStatus } from '../support/expect-status';
import type { ApiResponse } from '../support/http-client';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  decideSandboxRefund,
  groupPayPath,
  pay,
  paymentStatus,
  placeGroup,
  RETURN_URL,
  type PlacedOrder,
} from '../support/payment-fixtures';
import { confirmRefund } from '../../src/modules/refunds/refund-operations';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';

/**
 * Decision record 0108: a group's members extended together, paid by one top-up with a share
 * per member. client.op checks every body against the spec's schema for its status. Each
 * member: TRK-STD-3000 without a quote, 7 days from `departure` for 4,500.00, paid by one group
 * payment; each day more costs 350.00, so three days more are 1,050.00 a member.
 */
const CLOCK = '/api/external/v1/sandbox/clock';
// A database of its own: the invariant checker at its end reads every row.
const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'group_extensions' });
const CHECKER = path.resolve(__dirname, '../../scripts/check-invariants.mjs');
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Three Passes Group Treks Pvt. Ltd.' });
});

afterEach(async () => {
  await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
});

const lastDay = addDays(departure, 6);
const groupPath = (groupRef: string) => `${ORDERS}/groups/${groupRef}`;
const setClock = async (today: string) =>
  expectStatus(await client.op('setSandboxClock', 'PUT', CLOCK, { today }, { token: agency.token }), 200);
const preview = (groupRef: string, body: Record<string, unknown>) =>
  client.op('previewGroupExtension', 'POST', `${groupPath(groupRef)}/extension/preview`, body, {
    token: agency.token,
  });
const extendGroup = (groupRef: string, body: Record<string, unknown>, key: string = randomUUID()) =>
  client.op(
    'extendGroup',
    'POST',
    `${groupPath(groupRef)}/extension`,
    { gateway: 'card_gateway', returnUrl: RETURN_URL, ...body },
    { token: agency.token, headers: { 'idempotency-key': key } },
  );
const extendOne = (orderRef: string, body: Record<string, unknown>) =>
  client.op(
    'extendOrder',
    'POST',
    `${ORDERS}/${orderRef}/extension`,
    { gateway: 'card_gateway', returnUrl: RETURN_URL, ...body },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );
const decide = (paymentRef: string, outcome: 'CAPTURED' | 'DECLINED') =>
  client.op(
    'setSandboxPaymentOutcome',
    'POST',
    `/api/external/v1/sandbox/payments/${paymentRef}/outcome`,
    { outcome },
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
const endOf = async (orderRef: string) =>
  (await client.op('getOrder', 'GET', `${ORDERS}/${orderRef}`, undefined, { token: agency.token })).body.data
    .coverageEndDate as string;

function expectCode(response: ApiResponse, status: number, code: string): void {
  expectStatus(response, status);
  expect(response.body.code).toBe(code);
}

/** A group of `size` paid by one group payment through the sandbox helper. */
async function paidGroup(size = 3): Promise<{ groupRef: string; orders: PlacedOrder[]; groupPaymentRef: string }> {
  const { groupRef, orders } = await placeGroup(server, client, agency, size);
  const started = await client.op(
    'payGroup',
    'POST',
    groupPayPath(groupRef),
    { gateway: 'card_gateway', returnUrl: RETURN_URL },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );
  expectStatus(started, 200);
  expectStatus(await decide(started.body.data.paymentRef, 'CAPTURED'), 200);
  return { groupRef, orders, groupPaymentRef: started.body.data.paymentRef };
}

/** What a refused request must leave as it was: each member's end, amendments and payment attempts. */
async function writtenFor(orders: readonly PlacedOrder[]) {
  const em = server.orm.em.fork();
  const rows = [];
  for (const order of orders)
    rows.push({
      end: (await em.findOneOrFail(Order, order.orderId)).coverageEndDate,
      amendments: await em.count(OrderAmendment, { order: order.orderId }),
      attempts: await em.count(PaymentAttempt, { orders: { order: order.orderId } }),
    });
  return rows;
}

const sharesOf = async (paymentRef: string) =>
  (await server.orm.em.fork().find(PaymentAttemptOrder, { attempt: { paymentRef } }, { populate: ['order'] }))
    .map((line) => [line.order.orderRef, line.amount, line.settlement])
    .sort();

const amendmentsOf = async (paymentRef: string) =>
  (await server.orm.em.fork().find(OrderAmendment, { paymentRef }, { populate: ['order'] }))
    .map((amendment) => [amendment.order.orderRef, amendment.status])
    .sort();

const extendedEvents = (orderId: string) =>
  server.orm.em.fork().find(WebhookEvent, { type: 'order.extended', payload: { data: { orderId } } });

describe('POST /orders/groups/{groupRef}/extension/preview', () => {
  it("when a paid group of three asks three days more, then it answers each member's preview and one top-up of their sum, and changes nothing", async () => {
    const { groupRef, orders } = await paidGroup();
    const before = await writtenFor(orders);
    const response = await preview(groupRef, { extraDays: 3 });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      groupRef,
      previousCoverageEndDate: lastDay,
      coverageEndDate: addDays(lastDay, 3),
      amountDue: 3150,
      currency: 'NPR',
      allowed: true,
      refusal: null,
      skipped: [],
    });
    expect(response.body.data.members).toEqual(
      orders.map((order) => ({
        orderRef: order.orderRef,
        coverageStartDate: departure,
        coverageEndDate: addDays(lastDay, 3),
        previousCoverageEndDate: lastDay,
        durationDays: 10,
        maxDurationDays: 365,
        newPremium: 5550,
        premiumPaid: 4500,
        amountDue: 1050,
        currency: 'NPR',
        allowed: true,
        refusal: null,
      })),
    );
    expect(await writtenFor(orders)).toEqual(before);
  });

  it('when the cover has ended (test clock), then it answers allowed false with COVER_ENDED naming a member', async () => {
    const { groupRef, orders } = await paidGroup(2);
    await setClock(addDays(lastDay, 1));
    const response = await preview(groupRef, { extraDays: 2 });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ allowed: false, refusal: { code: 'COVER_ENDED' } });
    expect(response.body.data.refusal.message).toContain(orders[0]!.orderRef);
  });
});

describe('POST /orders/groups/{groupRef}/extension', () => {
  it('when a paid group of three is extended, then one top-up carries a share per member summing to the amount due; captured, every member is extended at once with its version, event and commission', async () => {
    const { groupRef, orders } = await paidGroup();
    await setClock(addDays(departure, 2));
    const key = randomUUID();
    const response = await extendGroup(groupRef, { extraDays: 3 }, key);
    expectStatus(response, 200);
    const group = response.body.data;
    expect(group).toMatchObject({
      groupRef,
      status: 'AWAITING_PAYMENT',
      previousCoverageEndDate: lastDay,
      coverageEndDate: addDays(lastDay, 3),
      amountDue: 3150,
      currency: 'NPR',
      skipped: [],
    });
    const topUpRef = group.paymentRef as string;
    expect(group.paymentUrl).toEqual(expect.stringContaining(topUpRef));
    expect(group.members).toEqual(
      orders.map((order) =>
        expect.objectContaining({
          amendmentRef: `${order.orderRef}-EXT-1`,
          orderRef: order.orderRef,
          status: 'AWAITING_PAYMENT',
          amountDue: 1050,
          paymentRef: topUpRef,
        }),
      ),
    );
    // One payment: the customer pays 3,150.00 once; each member's share is its own amount due.
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: topUpRef });
    expect(attempt).toMatchObject({ amount: 315_000, scope: 'GROUP' });
    expect(await sharesOf(topUpRef)).toEqual(orders.map((order) => [order.orderRef, 105_000, null]).sort());
    // The same key and body answer the same extensions; the same key with another body is a 409.
    const replayed = await extendGroup(groupRef, { extraDays: 3 }, key);
    expectStatus(replayed, 200);
    expect(replayed.headers.get('idempotency-replayed')).toBe('true');
    expect(replayed.body.data).toEqual(group);
    expectCode(await extendGroup(groupRef, { extraDays: 4 }, key), 409, 'IDEMPOTENCY_KEY_REUSED');
    // Nothing moves before the capture.
    expect(await endOf(orders[0]!.orderRef)).toBe(lastDay);

    expectStatus(await decide(topUpRef, 'CAPTURED'), 200);

    const em = server.orm.em.fork();
    expect(await amendmentsOf(topUpRef)).toEqual(orders.map((order) => [order.orderRef, 'APPLIED']).sort());
    expect(await sharesOf(topUpRef)).toEqual(orders.map((order) => [order.orderRef, 105_000, 'PAID']).sort());
    expect((await em.findOneOrFail(PaymentAttempt, { paymentRef: topUpRef })).status).toBe('SUCCESS');
    for (const order of orders) {
      expect(await endOf(order.orderRef)).toBe(addDays(lastDay, 3));
      // The certificate's versions are the audit's COVER_EXTENDED entries.
      const audit = await auditEntriesOf(em, order.orderId);
      expect(audit.filter((entry) => entry.action === 'COVER_EXTENDED')).toEqual([
        expect.objectContaining({
          details: expect.objectContaining({ amendmentRef: `${order.orderRef}-EXT-1`, paymentRef: topUpRef }),
        }),
      ]);
      const events = await extendedEvents(order.orderId);
      expect(events.map((event) => event.payload)).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ orderRef: order.orderRef, paymentRef: topUpRef, amountPaid: 1050 }),
        }),
      ]);
      // Commission earned on the member's share, all of it premium.
      const lines = await em.find(CommissionEntry, { order: order.orderId, paymentRef: topUpRef });
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((line) => line.kind === 'EARNED' && line.base === 105_000 && line.share === 105_000)).toBe(
        true,
      );
      const status = await paymentStatus(client, agency, order.orderRef);
      expectStatus(status, 200);
      expect(status.body.data.topUps).toEqual([
        expect.objectContaining({ paymentRef: topUpRef, paymentStatus: 'SUCCESS', amount: 1050 }),
      ]);
    }
    // The group's own payment is still the one the group overview reports.
    const overview = await client.op('getOrderGroup', 'GET', groupPath(groupRef), undefined, { token: agency.token });
    expectStatus(overview, 200);
    expect(overview.body.data.payment.latestGroupPayment.paymentRef).not.toBe(topUpRef);
    // A retry after the capture answers the extensions, now applied.
    const after = await extendGroup(groupRef, { extraDays: 3 }, key);
    expectStatus(after, 200);
    expect(after.body.data).toMatchObject({ status: 'APPLIED', paymentRef: topUpRef });
  });

  it("when the members' amounts due differ, then each member's share of the one top-up is its own amount due, and a member with nothing due is extended at once", async () => {
    const { groupRef, orders } = await paidGroup();
    const [cheaper, dearer, same] = orders as [PlacedOrder, PlacedOrder, PlacedOrder];
    // Catalogue prices changed since the members were sold (as extension.test.ts does for one order): one member's
    // package now lists at 3,000.00 for its 4,500.00 paid, another's at 9,000.00.
    const em = server.orm.em.fork();
    await em.nativeUpdate(Order, { id: cheaper.orderId }, { packagePrice: 300_000 });
    await em.nativeUpdate(Order, { id: dearer.orderId }, { packagePrice: 900_000 });
    const response = await extendGroup(groupRef, { extraDays: 3 });
    await em.nativeUpdate(Order, { id: { $in: [cheaper.orderId, dearer.orderId] } }, { packagePrice: 450_000 });
    expectStatus(response, 200);
    // 10 days list at 5,550.00: 5,550 x 4,500 / 3,000 = 8,325.00 for the first (3,825.00 due); 2,775.00 for the second (nothing due).
    const topUpRef = response.body.data.paymentRef as string;
    expect(response.body.data).toMatchObject({ status: 'AWAITING_PAYMENT', amountDue: 4875 });
    expect(response.body.data.members).toEqual([
      expect.objectContaining({ orderRef: cheaper.orderRef, amountDue: 3825, paymentRef: topUpRef }),
      expect.objectContaining({ orderRef: dearer.orderRef, amountDue: 0, paymentRef: null, status: 'APPLIED' }),
      expect.objectContaining({ orderRef: same.orderRef, amountDue: 1050, paymentRef: topUpRef }),
    ]);
    expect(await sharesOf(topUpRef)).toEqual(
      [
        [cheaper.orderRef, 382_500, null],
        [same.orderRef, 105_000, null],
      ].sort(),
    );
    expect((await em.findOneOrFail(PaymentAttempt, { paymentRef: topUpRef })).amount).toBe(487_500);
    expect(await endOf(dearer.orderRef)).toBe(addDays(lastDay, 3));
    expectStatus(await decide(topUpRef, 'CAPTURED'), 200);
    expect(await amendmentsOf(topUpRef)).toEqual(
      [
        [cheaper.orderRef, 'APPLIED'],
        [same.orderRef, 'APPLIED'],
      ].sort(),
    );
    for (const order of orders) expect(await endOf(order.orderRef)).toBe(addDays(lastDay, 3));
  });

  it('when a member has an extension awaiting its top-up, then the group request is a 409 EXTENSION_ALREADY_OPEN naming it, and nothing is written', async () => {
    const { groupRef, orders } = await paidGroup();
    const single = await extendOne(orders[1]!.orderRef, { extraDays: 2 });
    expectStatus(single, 200);
    const before = await writtenFor(orders);
    const refused = await extendGroup(groupRef, { extraDays: 3 });
    expectCode(refused, 409, 'EXTENSION_ALREADY_OPEN');
    expect(refused.body.message).toContain(single.body.data.amendmentRef);
    expect(await writtenFor(orders)).toEqual(before);
  });

  it("when the group's one top-up is open, then a member's own extension is a 409 EXTENSION_ALREADY_OPEN", async () => {
    const { groupRef, orders } = await paidGroup(2);
    expectStatus(await extendGroup(groupRef, { extraDays: 3 }), 200);
    const refused = await extendOne(orders[0]!.orderRef, { extraDays: 1 });
    expectCode(refused, 409, 'EXTENSION_ALREADY_OPEN');
    expect(refused.body.message).toContain(`${orders[0]!.orderRef}-EXT-1`);
  });

  it('when the members end their cover on different days, then it is a 400 GROUP_WINDOWS_DIFFER naming each end, and nothing is written', async () => {
    const { groupRef, orders } = await paidGroup(2);
    const single = await extendOne(orders[0]!.orderRef, { extraDays: 2 });
    expectStatus(await decide(single.body.data.paymentRef, 'CAPTURED'), 200);
    const before = await writtenFor(orders);
    const refused = await extendGroup(groupRef, { extraDays: 3 });
    expectCode(refused, 400, 'GROUP_WINDOWS_DIFFER');
    expect(refused.body.message).toContain(`${orders[0]!.orderRef} on ${addDays(lastDay, 2)}`);
    expect(refused.body.message).toContain(`${orders[1]!.orderRef} on ${lastDay}`);
    expectCode(await preview(groupRef, { extraDays: 3 }), 400, 'GROUP_WINDOWS_DIFFER');
    expect(await writtenFor(orders)).toEqual(before);
  });

  it('when a member is cancelled, then it is skipped and said so; the others are extended by one top-up of their shares', async () => {
    const { groupRef, orders } = await paidGroup();
    expectStatus(await cancel(orders[2]!.orderRef), 200);
    const response = await extendGroup(groupRef, { extraDays: 3 });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      amountDue: 2100,
      skipped: [{ orderRef: orders[2]!.orderRef, status: 'CANCELLED', reason: 'ORDER_CANCELLED' }],
    });
    expect(response.body.data.members.map((member: { orderRef: string }) => member.orderRef)).toEqual([
      orders[0]!.orderRef,
      orders[1]!.orderRef,
    ]);
    expect(await sharesOf(response.body.data.paymentRef)).toEqual(
      [
        [orders[0]!.orderRef, 105_000, null],
        [orders[1]!.orderRef, 105_000, null],
      ].sort(),
    );
  });

  it("when a member is not paid, the new end is not later, the cover too long or ended, then it is a 400 with the single extension's code and nothing is written", async () => {
    // A group whose one member was paid on its own: the others are still PENDING.
    const { groupRef: partlyPaid, orders: partly } = await placeGroup(server, client, agency, 2);
    const started = await pay(client, agency, partly[0]!.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(await decide(started.body.data.paymentRef, 'CAPTURED'), 200);
    const notPaid = await extendGroup(partlyPaid, { extraDays: 2 });
    expectCode(notPaid, 400, 'ORDER_NOT_PAID');
    expect(notPaid.body.message).toContain(partly[1]!.orderRef);

    const { groupRef, orders } = await paidGroup(2);
    const before = await writtenFor(orders);
    expectCode(await extendGroup(groupRef, { coverageEndDate: lastDay }), 400, 'EXTENSION_NOT_LATER');
    expectCode(await extendGroup(groupRef, { coverageEndDate: addDays(departure, 365) }), 400, 'EXTENSION_TOO_LONG');
    await setClock(addDays(lastDay, 1));
    expectCode(await extendGroup(groupRef, { extraDays: 2 }), 400, 'COVER_ENDED');
    expect(await writtenFor(orders)).toEqual(before);
  });

  it('when the one top-up is captured after the cover ended (test clock), then no member is extended and every share is refunded as a late capture', async () => {
    const { groupRef, orders } = await paidGroup();
    await setClock(lastDay);
    const response = await extendGroup(groupRef, { extraDays: 2 });
    expectStatus(response, 200);
    const topUpRef = response.body.data.paymentRef as string;

    await setClock(addDays(lastDay, 1));
    expectStatus(await decide(topUpRef, 'CAPTURED'), 200);

    expect(await amendmentsOf(topUpRef)).toEqual(orders.map((order) => [order.orderRef, 'NOT_APPLIED']).sort());
    const em = server.orm.em.fork();
    const attempt = await em.findOneOrFail(PaymentAttempt, { paymentRef: topUpRef });
    expect(attempt).toMatchObject({ status: 'REFUND_PENDING', refundAmount: 210_000, refundReason: 'COVER_ENDED' });
    const refunds = await em.find(Refund, { attempt: attempt.id }, { populate: ['order'] });
    expect(refunds.map((refund) => [refund.order.orderRef, refund.cause, refund.amount]).sort()).toEqual(
      orders.map((order) => [order.orderRef, 'LATE_CAPTURE', 70_000]).sort(),
    );
    for (const order of orders) {
      expect(await endOf(order.orderRef)).toBe(lastDay);
      expect(await extendedEvents(order.orderId)).toHaveLength(0);
    }
  });

  it("when the one top-up is declined, then every member's extension expires with it and the group may be extended anew", async () => {
    const { groupRef, orders } = await paidGroup(2);
    const first = (await extendGroup(groupRef, { extraDays: 2 })).body.data;
    expectStatus(await decide(first.paymentRef, 'DECLINED'), 200);
    expect(await amendmentsOf(first.paymentRef)).toEqual(orders.map((order) => [order.orderRef, 'EXPIRED']).sort());
    const second = await extendGroup(groupRef, { extraDays: 2 });
    expectStatus(second, 200);
    expect(second.body.data.members.map((member: { amendmentRef: string }) => member.amendmentRef)).toEqual(
      orders.map((order) => `${order.orderRef}-EXT-2`),
    );
  });

  it("when one member is cancelled after the top-up was captured, then it gets back its share of the group payment and of the top-up, each through the provider that took it; the others' shares stay paid", async () => {
    const { groupRef, orders, groupPaymentRef } = await paidGroup();
    // The group paid by card, its top-up by wallet: each refund goes back the way its money came.
    const topUpRef = (await extendGroup(groupRef, { extraDays: 3, gateway: 'wallet_gateway' })).body.data
      .paymentRef as string;
    expectStatus(await decide(topUpRef, 'CAPTURED'), 200);
    const [member, ...others] = orders as [PlacedOrder, PlacedOrder, PlacedOrder];

    const answer = await cancel(member.orderRef);
    expectStatus(answer, 200);
    const { refund, topUpRefunds } = answer.body.data;
    expect(refund).toMatchObject({ gateway: 'CARD_GATEWAY', amount: 4500, cancellationFee: 0 });
    expect(topUpRefunds).toEqual([
      expect.objectContaining({ gateway: 'WALLET_GATEWAY', amount: 1050, cancellationFee: 0, status: 'MANUAL' }),
    ]);
    const em = server.orm.em.fork();
    const refunds = await em.find(Refund, { order: member.orderId }, { populate: ['attempt'] });
    expect(refunds.map((row) => [row.attempt.paymentRef, row.amount]).sort()).toEqual(
      [
        [groupPaymentRef, 450_000],
        [topUpRef, 105_000],
      ].sort(),
    );
    expect(await sharesOf(topUpRef)).toEqual(
      [
        [member.orderRef, 105_000, 'REFUND_PENDING'],
        ...others.map((order) => [order.orderRef, 105_000, 'PAID']),
      ].sort(),
    );
    for (const order of others) expect(await em.count(Refund, { order: order.orderId })).toBe(0);

    // Once given back, the member's commission on its top-up share is reversed; the others' stays earned.
    await decideSandboxRefund(client, agency, refund.refundRef);
    await confirmRefund(
      server.orm.em,
      server.payments,
      topUpRefunds[0].refundRef,
      'ESEWA-RFD-GRP-1',
      'operator-cli:test',
    );
    const kinds = async (orderId: string) =>
      (await server.orm.em.fork().find(CommissionEntry, { order: orderId, paymentRef: topUpRef })).map(
        (line) => line.kind,
      );
    expect(new Set(await kinds(member.orderId))).toEqual(new Set(['EARNED', 'REVERSED']));
    for (const order of others) expect(new Set(await kinds(order.orderId))).toEqual(new Set(['EARNED']));
    expect((await paymentStatus(client, agency, member.orderRef)).body.data.topUps).toEqual([
      expect.objectContaining({ paymentRef: topUpRef, paymentStatus: 'REFUNDED', paymentMethod: 'WALLET_GATEWAY' }),
    ]);
  });

  it("when the operator asks to give back a group's top-up on its own, then it is refused: a member's share goes back with its cancellation", async () => {
    const { groupRef, orders } = await paidGroup(2);
    const topUpRef = (await extendGroup(groupRef, { extraDays: 3 })).body.data.paymentRef as string;
    expectStatus(await decide(topUpRef, 'CAPTURED'), 200);
    const deps = { gateways: server.gateways.registry, refundWrites: server.payments.refundWrites };
    await expect(
      refundTopUp(server.orm.em, topUpRef, { actor: 'operator-cli:test', note: 'waived' }, deps),
    ).rejects.toThrow(/top-up of a group's extension \(2 members\)/);
    for (const order of orders) expect(await server.orm.em.fork().count(Refund, { order: order.orderId })).toBe(0);
  });

  it('when every member is under a disruption, then each is extended free at once with no payment, and a retry with the same key answers the same', async () => {
    const disruptionId = (
      await declareDisruption(
        server.orm.em,
        {
          area: 'LUKLA',
          startsOn: addDays(departure, 11),
          endsOn: addDays(departure, 15),
          maxDays: 3,
          note: 'Lukla flights grounded by low cloud',
        },
        'operator-cli:test',
      )
    ).disruptionId;
    // Two travellers on the Everest Base Camp route (area LUKLA), 14 days, one group payment.
    const items = [];
    for (let i = 0; i < 2; i++)
      items.push({
        touristId: await newTraveller(server, agency.companyId),
        ctgId: CTGS.standard5500,
        routeId: ROUTES.everestBaseCamp,
        departureDate: departure,
      });
    const created = await client.op('createOrders', 'POST', ORDERS, items, { token: agency.token });
    expectStatus(created, 201);
    const groupRef = created.body.data.groupRef as string;
    const started = await client.op(
      'payGroup',
      'POST',
      groupPayPath(groupRef),
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(await decide(started.body.data.paymentRef, 'CAPTURED'), 200);
    const end = addDays(departure, 13);
    await setClock(addDays(end, -1));

    const key = randomUUID();
    const body = { extraDays: 2, disruptionId, gateway: undefined, returnUrl: undefined };
    const response = await extendGroup(groupRef, body, key);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      status: 'APPLIED',
      amountDue: 0,
      paymentRef: null,
      paymentUrl: null,
      coverageEndDate: addDays(end, 2),
    });
    expect(response.body.data.members).toHaveLength(2);
    for (const member of response.body.data.members) {
      expect(member).toMatchObject({ status: 'APPLIED', amountDue: 0, disruptionId, paymentRef: null });
      expect(await endOf(member.orderRef)).toBe(addDays(end, 2));
    }
    const replayed = await extendGroup(groupRef, body, key);
    expectStatus(replayed, 200);
    expect(replayed.body.data).toEqual(response.body.data);
    expect(replayed.headers.get('idempotency-replayed')).toBe('true');
  });
});

describe('the invariant checker after group extensions', () => {
  it('finds nothing wrong (it counts a group top-up as a share per member)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CHECKER], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    });
    expect(stdout).toContain('invariants: 0 violations');
  });
});
