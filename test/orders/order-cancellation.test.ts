import { randomUUID } from 'node:crypto';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { Order } from '../../src/modules/orders/entities/order';
import { OrderCancellation } from '../../src/modules/orders/entities/order-cancellation';
import { AuditEntry } from '../../src/modules/orders/entities/audit-entry';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { refundWrites } from '../../src/modules/payments/refund-writes';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { confirmRefund } from '../../src/modules/refunds/refund-operations';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import type { ApiResponse } from '../support/http-client';
import { expectSchema } from '../support/contract';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  decideSandboxRefund,
  deliverCallback,
  groupPayPath,
  pay,
  paymentStatus,
  placeGroup,
  placeOrder,
  submitCheckout,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { lowTrek } from '../support/promo-fixtures';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let agency: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Annapurna Cancel Treks Pvt. Ltd.' });
  listed = await newPartner(server, client, { name: 'Listed Cancel Agency', type: CompanyType.TravelAgency });
  stranger = await newPartner(server, client, { name: 'Stranger Cancel Treks', type: CompanyType.TravelAgency });
});

const previewPath = (identifier: string) => `${ORDERS}/${encodeURIComponent(identifier)}/cancellation/preview`;
const cancelPath = (identifier: string) => `${ORDERS}/${encodeURIComponent(identifier)}/cancellation`;

const preview = (identifier: string, caller: TestPartner = agency): Promise<ApiResponse> =>
  client.op('previewOrderCancellation', 'POST', previewPath(identifier), undefined, { token: caller.token });

const cancel = (
  identifier: string,
  body: unknown = { reason: 'TRIP_CANCELLED' },
  key: string = randomUUID(),
  caller: TestPartner = agency,
): Promise<ApiResponse> =>
  client.op('cancelOrder', 'POST', cancelPath(identifier), body, {
    token: caller.token,
    headers: { 'idempotency-key': key },
  });

const detail = (identifier: string, caller: TestPartner = agency) =>
  client.op('getOrder', 'GET', `${ORDERS}/${encodeURIComponent(identifier)}`, undefined, { token: caller.token });

/** A card payment of the order, captured and called back. */
async function paidByCard(orderRef: string, gateway: 'card_gateway' | 'wallet_gateway' = 'card_gateway') {
  const started = (await pay(client, agency, orderRef, { gateway })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, gateway === 'card_gateway' ? APPROVE_CARD : APPROVE_WALLET);
  expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
  return started;
}

/** Moves the order's payment `days` back in time (the clock, not the calendar: the rules read paid_at). */
async function paidDaysAgo(orderId: string, days: number) {
  await server.orm.em.fork().nativeUpdate(Order, { id: orderId }, { paidAt: new Date(Date.now() - days * 86_400_000) });
}

async function refundOf(orderRef: string) {
  return server.orm.em.fork().findOne(Refund, { order: { orderRef } }, { populate: ['attempt'] });
}

describe('cancellation preview', () => {
  it('says an unpaid order cancels under UNPAID with no money, and changes nothing', async () => {
    const order = await placeOrder(server, client, agency);
    const answer = await preview(order.orderRef);
    expectStatus(answer, 200);
    expect(answer.body.data).toEqual({
      orderRef: order.orderRef,
      cancellable: true,
      notCancellableReason: null,
      rule: 'UNPAID',
      refundAmount: 0,
      cancellationFee: 0,
      feeBase: 0,
      currency: 'NPR',
    });
    expect((await detail(order.orderRef)).body.data).toMatchObject({ status: 'PENDING', cancellation: null });
  });

  it('keeps the fee on the insurance premium only: partner-priced added items go back in full, and feeBase says so (decision 0103)', async () => {
    const porter = { name: 'Porter for 12 days', price: 3600, quantity: 1 };
    const order = await placeOrder(server, client, agency, { addedServices: [porter] });
    await paidByCard(order.orderRef);
    await paidDaysAgo(order.orderId, 15);
    const share = Math.round(order.totalAmount * 100);
    const premium = share - porter.price * 100;
    const fee = Math.floor(premium / 10);
    const answer = await preview(order.orderRef);
    expectStatus(answer, 200);
    expect(answer.body.data).toMatchObject({
      rule: 'CANCELLATION_FEE',
      feeBase: premium / 100,
      cancellationFee: fee / 100,
      refundAmount: (share - fee) / 100,
    });
    const cancelled = await cancel(order.orderRef);
    expectStatus(cancelled, 200);
    expect(cancelled.body.data.refund).toMatchObject({ amount: (share - fee) / 100, cancellationFee: fee / 100 });
  });

  it('offers the whole payment back within the free look, and 10 % less after it, rounded down to the paisa', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef);
    expect((await preview(order.orderRef)).body.data).toMatchObject({
      rule: 'FREE_LOOK',
      cancellable: true,
      refundAmount: order.totalAmount,
      cancellationFee: 0,
    });
    await paidDaysAgo(order.orderId, 14);
    expect((await preview(order.orderRef)).body.data).toMatchObject({ rule: 'FREE_LOOK' });
    await paidDaysAgo(order.orderId, 15);
    const share = Math.round(order.totalAmount * 100);
    const fee = Math.floor(share / 10);
    expect((await preview(order.orderNumber)).body.data).toMatchObject({
      rule: 'CANCELLATION_FEE',
      cancellable: true,
      refundAmount: (share - fee) / 100,
      cancellationFee: fee / 100,
    });
  });

  it('says COVER_STARTED once the cover has started, and ALREADY_CANCELLED after a cancellation', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef);
    await server.orm.em.fork().nativeUpdate(Order, { id: order.orderId }, { coverageStartDate: kathmanduToday() });
    const started = (await preview(order.orderRef)).body.data;
    expect(started).toMatchObject({ rule: 'COVER_STARTED', cancellable: false, refundAmount: 0, cancellationFee: 0 });
    expect(started.notCancellableReason).toContain(`started on ${kathmanduToday()}`);

    const other = await placeOrder(server, client, agency);
    expectStatus(await cancel(other.orderRef), 200);
    expect((await preview(other.orderRef)).body.data).toMatchObject({ rule: 'ALREADY_CANCELLED', cancellable: false });
  });
});

describe('cancelling an order', () => {
  it('cancels an unpaid order with no money moved, closes its open checkout first, and shows the cancellation in the order detail', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const answer = await cancel(order.orderRef, {
      reason: 'DUPLICATE_BOOKING',
      note: 'Booked twice by the front desk',
    });
    expectStatus(answer, 200);
    expect(answer.body.data).toMatchObject({
      orderRef: order.orderRef,
      orderStatus: 'CANCELLED',
      reason: 'DUPLICATE_BOOKING',
      refund: null,
    });
    expectStatus(await submitCheckout(started.paymentUrl, APPROVE_CARD), 410);
    expect((await detail(order.orderRef)).body.data).toMatchObject({
      status: 'CANCELLED',
      cancellation: {
        cancelledAt: answer.body.data.cancelledAt,
        reason: 'DUPLICATE_BOOKING',
        note: 'Booked twice by the front desk',
        refund: null,
      },
    });
    const audit = await server.orm.em.fork().find(AuditEntry, { orderRef: order.orderRef, action: 'ORDER_CANCELLED' });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({
      rule: 'UNPAID',
      reason: 'DUPLICATE_BOOKING',
      closedPaymentRefs: [started.paymentRef],
    });
  });

  it('refunds a card-paid order in full within the free look: PENDING in the answer, then SUCCEEDED, and payment-status reads REFUND_PENDING then REFUNDED', async () => {
    const order = await placeOrder(server, client, agency);
    const started = await paidByCard(order.orderRef);
    const answer = await cancel(order.orderRef);
    expectStatus(answer, 200);
    const refund = answer.body.data.refund;
    expect(refund).toMatchObject({ amount: order.totalAmount, cancellationFee: 0, gateway: 'CARD_GATEWAY' });
    expect(refund.refundRef).toMatch(/^RFD-\d{4}-\d{6,}$/);
    expect(['PENDING', 'SUCCEEDED']).toContain(refund.status);

    // The sandbox card gateway decides no refund by itself: it waits for the sandbox helper.
    await server.refunds.runOnce();
    expect(await refundOf(order.orderRef)).toMatchObject({ status: 'PENDING', providerRefundRef: null });
    expect((await paymentStatus(client, agency, order.orderRef)).body.data.paymentStatus).toBe('REFUND_PENDING');
    await decideSandboxRefund(client, agency, refund.refundRef);
    const done = await refundOf(order.orderRef);
    expect(done).toMatchObject({
      status: 'SUCCEEDED',
      provider: 'sandbox',
      providerRefundRef: `SBX-${refund.refundRef}`,
      cause: 'CANCELLATION',
    });
    const status = (await paymentStatus(client, agency, order.orderRef)).body.data;
    expect(status).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUNDED',
      paymentRef: started.paymentRef,
      refund: { refundRef: refund.refundRef, status: 'SUCCEEDED' },
    });
    expect((await detail(order.orderRef)).body.data.cancellation.refund).toMatchObject({
      refundRef: refund.refundRef,
      status: 'SUCCEEDED',
      amount: order.totalAmount,
    });
    // The policy number stays with the cancelled order.
    expect((await detail(order.orderRef)).body.data.policyNumber).toMatch(/^SBX-POL-/);
    // The order book tells the same story as payment-status.
    const book = await client.op('listOrders', 'GET', `${ORDERS}?search=${order.orderRef}`, undefined, {
      token: agency.token,
    });
    expect(book.body.data.content).toEqual([
      expect.objectContaining({
        orderRef: order.orderRef,
        status: 'CANCELLED',
        paymentStatus: 'REFUNDED',
        cancelledAt: expect.any(String),
      }),
    ]);
  });

  it('keeps CANCELLATION_FEE_PERCENT of the share after the free look, and refund + fee is what the payment took', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef);
    await paidDaysAgo(order.orderId, 20);
    const answer = await cancel(order.orderRef, { reason: 'TRAVELLER_REQUEST' });
    const share = Math.round(order.totalAmount * 100);
    expect(answer.body.data.refund).toMatchObject({
      amount: (share - Math.floor(share / 10)) / 100,
      cancellationFee: Math.floor(share / 10) / 100,
    });
    const refund = (await refundOf(order.orderRef))!;
    expect(refund.amount + refund.fee).toBe(share);
  });

  it('refuses an order whose cover has started (400) and changes nothing', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef);
    await server.orm.em
      .fork()
      .nativeUpdate(Order, { id: order.orderId }, { coverageStartDate: addDays(kathmanduToday(), -1) });
    const answer = await cancel(order.orderRef);
    expectStatus(answer, 400);
    expect(answer.body.message).toContain('can no longer be cancelled through the API');
    expect((await detail(order.orderRef)).body.data).toMatchObject({ status: 'PAID', cancellation: null });
    expect(await refundOf(order.orderRef)).toBeNull();
  });

  it('refuses an order already cancelled (400, a new key), and a cancelled order never comes back', async () => {
    const order = await placeOrder(server, client, agency);
    expectStatus(await cancel(order.orderRef), 200);
    const again = await cancel(order.orderRef);
    expectStatus(again, 400);
    expect(again.body.message).toMatch(new RegExp(`^Order ${order.orderRef} was already cancelled on `));
    expectStatus(await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }), 400);
  });

  it('cancels each order of a group on its own, refunding only its own share of the group payment', async () => {
    const { groupRef, orders } = await placeGroup(server, client, agency, 3);
    const started = (
      await client.op(
        'payGroup',
        'POST',
        groupPayPath(groupRef),
        { gateway: 'card_gateway' },
        { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
      )
    ).body.data;
    const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
    expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
    const [first, second] = orders;
    const answer = await cancel(first!.orderRef);
    expect(answer.body.data.refund).toMatchObject({ amount: first!.totalAmount, cancellationFee: 0 });
    expect((await detail(second!.orderRef)).body.data).toMatchObject({ status: 'PAID', cancellation: null });
    await server.refunds.runOnce();
    await decideSandboxRefund(client, agency, answer.body.data.refund.refundRef);
    expect((await paymentStatus(client, agency, first!.orderRef)).body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUNDED',
      amount: first!.totalAmount,
      groupRef,
    });
    expect((await paymentStatus(client, agency, second!.orderRef)).body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
    });
  });

  it('records a sandbox wallet refund as MANUAL until the operator confirms it', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef, 'wallet_gateway');
    const answer = await cancel(order.orderRef);
    expect(answer.body.data.refund).toMatchObject({ status: 'MANUAL', gateway: 'WALLET_GATEWAY' });
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      paymentStatus: 'REFUND_PENDING',
      refund: { status: 'MANUAL' },
    });
    await confirmRefund(
      server.orm.em.fork(),
      { refundWrites },
      answer.body.data.refund.refundRef,
      'WALLET-RFD-889',
      'operator-cli:test',
    );
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      paymentStatus: 'REFUNDED',
      refund: { status: 'SUCCEEDED' },
    });
  });

  it('records the refund of a cash order as owed by the operator (MANUAL)', async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    await recordCashPayment(
      server.orm.em.fork(),
      order.orderRef,
      { amount: Math.round(order.totalAmount * 100) },
      'operator-cli:test',
    );
    const answer = await cancel(order.orderRef);
    expect(answer.body.data.refund).toMatchObject({ status: 'MANUAL', gateway: 'CASH', amount: order.totalAmount });
  });

  it('settles an unpaid order the customer had just paid on the open checkout, then cancels it with a full refund, and says so', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    expectStatus(await submitCheckout(started.paymentUrl, APPROVE_CARD), 303);
    const answer = await cancel(order.orderRef);
    expectStatus(answer, 200);
    expect(answer.body.message).toContain('paid');
    expect(answer.body.data.refund).toMatchObject({ amount: order.totalAmount, cancellationFee: 0 });
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    expect(attempt.status).toBe('SUCCESS');
  });
});

describe('a checkout the customer paid just before a cancellation that is refused', () => {
  it('still records the capture: the order is PAID by it, the cancellation (cover started) is a 400, and nothing is cancelled or refunded', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    expectStatus(await submitCheckout(started.paymentUrl, APPROVE_CARD), 303);
    // Its first day: still payable (issue 40), no longer cancellable through the API.
    await server.orm.em.fork().nativeUpdate(Order, { id: order.orderId }, { coverageStartDate: kathmanduToday() });

    const answer = await cancel(order.orderRef);
    expectStatus(answer, 400);
    expect(answer.body.message).toContain('can no longer be cancelled through the API');
    expect((await detail(order.orderRef)).body.data).toMatchObject({ status: 'PAID', cancellation: null });
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    expect(attempt.status).toBe('SUCCESS');
    expect(await refundOf(order.orderRef)).toBeNull();
  });
});

describe('the Idempotency-Key of a cancellation', () => {
  it('answers the same result to the same key and body, and 409 to the same key with another body or order, whose open checkout stays open', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef);
    const key = randomUUID();
    const first = await cancel(order.orderRef, { reason: 'OTHER', note: 'Visa refused' }, key);
    const again = await cancel(order.orderRef, { reason: 'OTHER', note: 'Visa refused' }, key);
    expectStatus(again, 200);
    expect([first.headers.get('idempotency-replayed'), again.headers.get('idempotency-replayed')]).toEqual([
      null,
      'true',
    ]);
    expect(again.body.data).toMatchObject({
      cancelledAt: first.body.data.cancelledAt,
      refund: { refundRef: first.body.data.refund.refundRef },
    });
    expectStatus(await cancel(order.orderRef, { reason: 'OTHER', note: 'Another note' }, key), 409);
    const other = await placeOrder(server, client, agency);
    expectStatus(await pay(client, agency, other.orderRef, { gateway: 'card_gateway' }), 200);
    expectStatus(await cancel(other.orderRef, { reason: 'OTHER', note: 'Visa refused' }, key), 409);
    expect(await server.orm.em.fork().count(Refund, { order: { orderRef: order.orderRef } })).toBe(1);
    expect(await server.orm.em.fork().count(OrderCancellation, { order: { orderRef: other.orderRef } })).toBe(0);
    // The key's conflict is found before the other order's open checkout is put to its gateway.
    expect((await paymentStatus(client, agency, other.orderRef)).body.data.paymentStatus).toBe('INITIATED');
  });

  it('is required and must be a UUID (400), and the body takes only reason and note', async () => {
    const order = await placeOrder(server, client, agency);
    const missing = await client.op(
      'cancelOrder',
      'POST',
      cancelPath(order.orderRef),
      { reason: 'OTHER' },
      { token: agency.token },
    );
    expectStatus(missing, 400);
    expectStatus(await cancel(order.orderRef, { reason: 'OTHER' }, 'not-a-uuid'), 400);
    expectStatus(await cancel(order.orderRef, { reason: 'WEATHER' }), 400);
    expectStatus(await cancel(order.orderRef, { reason: 'OTHER', refundAmount: 5 }), 400);
    expect((await detail(order.orderRef)).body.data.status).toBe('PENDING');
  });
});

describe('who may cancel', () => {
  it('lets only the placing company preview or cancel: a listed agency gets 403, a stranger 403 on cancel and on preview the 404 of an unknown order, and its open checkout stays open', async () => {
    const touristId = await newTraveller(server, agency.companyId);
    const created = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      lowTrek(touristId, { travelCompanyIds: [listed.companyId] }),
      { token: agency.token },
    );
    const { orderRef } = created.body.data;
    expectStatus(await pay(client, agency, orderRef, { gateway: 'card_gateway' }), 200);
    for (const caller of [listed, stranger]) expectStatus(await cancel(orderRef, undefined, undefined, caller), 403);
    expectStatus(await preview(orderRef, listed), 403);
    // A read the contract gives no 403: a stranger learns nothing of whether the reference exists.
    expectStatus(await preview(orderRef, stranger), 404);
    expectStatus(await preview('ORD-2030-999999'), 404);
    expectStatus(await cancel('ORD-2030-999999'), 404);
    expect((await detail(orderRef, listed)).body.data.status).toBe('PENDING');
    expect((await paymentStatus(client, agency, orderRef)).body.data.paymentStatus).toBe('INITIATED');
  });

  it('accepts every order identifier form: order number, order UUID and payment reference', async () => {
    const byNumber = await placeOrder(server, client, agency);
    expect((await cancel(byNumber.orderNumber)).body.data.orderRef).toBe(byNumber.orderRef);
    const byId = await placeOrder(server, client, agency);
    expect((await cancel(byId.orderId)).body.data.orderRef).toBe(byId.orderRef);
    const byPayment = await placeOrder(server, client, agency);
    const started = await paidByCard(byPayment.orderRef);
    expect((await preview(started.paymentRef)).body.data.orderRef).toBe(byPayment.orderRef);
    expect((await cancel(started.paymentRef)).body.data.orderRef).toBe(byPayment.orderRef);
  });
});

describe('a cancelled order everywhere it shows', () => {
  it('has no certificate (400 saying when it was cancelled), and its verify page says CANCELLED', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef);
    const policyNumber = (await detail(order.orderRef)).body.data.policyNumber;
    const cancelled = await cancel(order.orderRef);
    const certificate = await client.op(
      'getOrderCertificate',
      'GET',
      `${ORDERS}/${order.orderRef}/certificate`,
      undefined,
      { token: agency.token },
    );
    expectStatus(certificate, 400);
    // In Nepal time (UTC+05:45), as every other date a partner reads.
    const nepal = new Date(Date.parse(cancelled.body.data.cancelledAt) + 345 * 60_000)
      .toISOString()
      .slice(0, 16)
      .replace('T', ' ');
    expect(certificate.body.message).toBe(
      `Order ${order.orderRef} was cancelled on ${nepal} Nepal time: its policy covers nothing and has no certificate`,
    );
    const page = await fetch(`${server.url}/verify/${policyNumber}`);
    expect(await page.text()).toContain('CANCELLED');
  });

  it('announces order.cancelled with its refund, and writes an audit entry for the cancellation and for the refund', async () => {
    const order = await placeOrder(server, client, agency);
    await paidByCard(order.orderRef);
    const answer = await cancel(order.orderRef, { reason: 'TRAVELLER_REQUEST' });
    const events = (await server.orm.em.fork().find(WebhookEvent, { type: 'order.cancelled' })).filter(
      (event) => (event.payload as { data: { orderRef: string } }).data.orderRef === order.orderRef,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      data: {
        orderStatus: 'CANCELLED',
        reason: 'TRAVELLER_REQUEST',
        refund: { refundRef: answer.body.data.refund.refundRef, cause: 'CANCELLATION' },
      },
    });
    expectSchema('OrderCancelledEvent', events[0]!.payload);
    const actions = (await server.orm.em.fork().find(AuditEntry, { orderRef: order.orderRef })).map(
      (entry) => entry.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['ORDER_CANCELLED', 'REFUND_CREATED']));
  });
});
