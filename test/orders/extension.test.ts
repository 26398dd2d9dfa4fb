import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { readPdf } from '../support/certificate-pdf';
import { expectContract } from '../support/contract';
import { serverBehind } from '../support/prism';
import { auditEntriesOf } from '../../src/modules/orders/audit-log';
import { Order } from '../../src/modules/orders/entities/order';
import { OrderAmendment } from '../../src/modules/orders/entities/order-amendment';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { watchDueAttempts } from '../../src/modules/payments/payment-watch';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, paymentStatus, placeOrder, RETURN_URL, type PlacedOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';
import type { ApiResponse } from '../support/http-client';

/**
 * Decision record 0099: preview and extend a paid order's cover, the
 * top-up paid through the sandbox helper, with the test clock. client.op checks every body
 * against the spec's schema for its status. The order: TRK-STD-3000 without a quote, 7 days from
 * `departure` for 4,500.00; each day more costs 350.00.
 */
const CLOCK = '/api/external/v1/sandbox/clock';
// A database of its own: the invariant checker at its end reads every row, and other files leave theirs.
const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'extensions' });
const CHECKER = path.resolve(__dirname, '../../scripts/check-invariants.mjs');
let agency: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Long Trek Adventures Pvt. Ltd.' });
  stranger = await newPartner(server, client, { name: 'Other Valley Treks' });
});

afterEach(async () => {
  await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
});

const lastDay = addDays(departure, 6);
const setClock = async (today: string) =>
  expectStatus(await client.op('setSandboxClock', 'PUT', CLOCK, { today }, { token: agency.token }), 200);
const preview = (orderRef: string, body: unknown, partner = agency) =>
  client.op('previewOrderExtension', 'POST', `${ORDERS}/${orderRef}/extension/preview`, body, {
    token: partner.token,
  });
const extend = (orderRef: string, body: Record<string, unknown>, key: string = randomUUID()) =>
  client.op(
    'extendOrder',
    'POST',
    `${ORDERS}/${orderRef}/extension`,
    { gateway: 'card_gateway', returnUrl: RETURN_URL, ...body },
    { token: agency.token, headers: { 'idempotency-key': key } },
  );
const capture = (paymentRef: string) =>
  client.op(
    'setSandboxPaymentOutcome',
    'POST',
    `/api/external/v1/sandbox/payments/${paymentRef}/outcome`,
    { outcome: 'CAPTURED' },
    { token: agency.token },
  );
const detail = async (orderRef: string) =>
  (await client.op('getOrder', 'GET', `${ORDERS}/${orderRef}`, undefined, { token: agency.token })).body.data;

/** An order paid before its cover starts, through the sandbox helper. */
async function paidOrder(): Promise<PlacedOrder & { paymentRef: string }> {
  const order = await placeOrder(server, client, agency);
  const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
  const paid = await capture(started.body.data.paymentRef);
  expect(paid.body.data.orderStatus).toBe('PAID');
  return { ...order, paymentRef: started.body.data.paymentRef };
}

function expectCode(response: ApiResponse, status: number, code: string): void {
  expectStatus(response, status);
  expect(response.body.code).toBe(code);
}

async function writtenFor(order: PlacedOrder) {
  const em = server.orm.em.fork();
  const row = await em.findOneOrFail(Order, order.orderId);
  return {
    end: row.coverageEndDate,
    durationDays: row.durationDays,
    amendments: await em.count(OrderAmendment, { order: order.orderId }),
    attempts: await em.count(PaymentAttempt, { orders: { order: order.orderId } }),
    audit: (await auditEntriesOf(em, order.orderId)).length,
  };
}

const amendmentRow = (amendmentRef: string) => server.orm.em.fork().findOneOrFail(OrderAmendment, { amendmentRef });

const extendedEvents = (order: PlacedOrder) =>
  server.orm.em.fork().find(WebhookEvent, { type: 'order.extended', payload: { data: { orderId: order.orderId } } });

describe('POST /orders/{orderRef}/extension/preview', () => {
  it('when a paid order asks three days more, then it answers the new window, the premium by the package pricing and the difference, and changes nothing', async () => {
    const order = await paidOrder();
    const before = await writtenFor(order);
    const response = await preview(order.orderRef, { extraDays: 3 });
    expectStatus(response, 200);
    expect(response.body.data).toEqual({
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
    });
    // The same extension named by its end date answers the same.
    expect((await preview(order.orderRef, { coverageEndDate: addDays(lastDay, 3) })).body.data).toEqual(
      response.body.data,
    );
    expect(await writtenFor(order)).toEqual(before);
  });

  it('when the order is not paid, then it is a 400 ORDER_NOT_PAID', async () => {
    const order = await placeOrder(server, client, agency);
    expectCode(await preview(order.orderRef, { extraDays: 2 }), 400, 'ORDER_NOT_PAID');
  });

  it('when the new end is not after the current end, then it is a 400 EXTENSION_NOT_LATER', async () => {
    const order = await paidOrder();
    expectCode(await preview(order.orderRef, { coverageEndDate: lastDay }), 400, 'EXTENSION_NOT_LATER');
    expectCode(await preview(order.orderRef, { coverageEndDate: departure }), 400, 'EXTENSION_NOT_LATER');
  });

  it("when the cover would be longer than the package's maximum, then it is a 400 EXTENSION_TOO_LONG; exactly the maximum is allowed", async () => {
    const order = await paidOrder();
    expectCode(await preview(order.orderRef, { coverageEndDate: addDays(departure, 365) }), 400, 'EXTENSION_TOO_LONG');
    const longest = await preview(order.orderRef, { coverageEndDate: addDays(departure, 364) });
    expectStatus(longest, 200);
    expect(longest.body.data).toMatchObject({ durationDays: 365, amountDue: 4500 + 358 * 350 - 4500 });
  });

  it('when the cover has ended (test clock), then it answers allowed false with COVER_ENDED', async () => {
    const order = await paidOrder();
    await setClock(addDays(lastDay, 1));
    const response = await preview(order.orderRef, { extraDays: 2 });
    expectStatus(response, 200);
    expect(response.body.data.allowed).toBe(false);
    expect(response.body.data.refusal.code).toBe('COVER_ENDED');
  });

  it("when a stranger asks about another company's order, then it is refused", async () => {
    const order = await paidOrder();
    const response = await preview(order.orderRef, { extraDays: 2 }, stranger);
    expect([403, 404]).toContain(response.status);
    expectStatus(response, response.status);
  });

  it('when both or neither of coverageEndDate and extraDays are sent, then it is a 400 VALIDATION_FAILED', async () => {
    const order = await paidOrder();
    expectCode(await preview(order.orderRef, {}), 400, 'VALIDATION_FAILED');
    expectCode(
      await preview(order.orderRef, { extraDays: 1, coverageEndDate: addDays(lastDay, 1) }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('POST /orders/{orderRef}/extension', () => {
  it('when a paid order is extended during its cover, then an amendment awaits its top-up; the captured top-up moves the end, applies it, sends order.extended and audits it', async () => {
    const order = await paidOrder();
    await setClock(addDays(departure, 2));
    const key = randomUUID();
    const response = await extend(order.orderRef, { extraDays: 3 }, key);
    expectStatus(response, 200);
    const amendment = response.body.data;
    expect(amendment).toMatchObject({
      amendmentRef: `${order.orderRef}-EXT-1`,
      orderRef: order.orderRef,
      status: 'AWAITING_PAYMENT',
      previousCoverageEndDate: lastDay,
      coverageEndDate: addDays(lastDay, 3),
      durationDays: 10,
      newPremium: 5550,
      amountDue: 1050,
      currency: 'NPR',
      appliedAt: null,
    });
    expect(amendment.paymentUrl).toEqual(expect.stringContaining(amendment.paymentRef));
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: amendment.paymentRef });
    expect(attempt.amount).toBe(105_000);
    // Not applied before its capture.
    expect((await detail(order.orderRef)).coverageEndDate).toBe(lastDay);
    // A retry with the same key answers the same amendment; a second extension meanwhile is a 409 naming it.
    const retriedOpen = await extend(order.orderRef, { extraDays: 3 }, key);
    expect(retriedOpen.body.data).toEqual(amendment);
    expect(retriedOpen.headers.get('idempotency-replayed')).toBe('true');
    const second = await extend(order.orderRef, { extraDays: 5 });
    expectCode(second, 409, 'EXTENSION_ALREADY_OPEN');
    expect(second.body.message).toContain(amendment.amendmentRef);
    const auditBefore = (await writtenFor(order)).audit;

    const captured = await capture(amendment.paymentRef);
    expectStatus(captured, 200);

    const after = await detail(order.orderRef);
    expect(after).toMatchObject({ coverageEndDate: addDays(lastDay, 3), durationDays: 10, status: 'PAID' });
    const row = await server.orm.em.fork().findOneOrFail(OrderAmendment, { amendmentRef: amendment.amendmentRef });
    expect(row.status).toBe('APPLIED');
    expect(row.appliedAt).toEqual(expect.any(Date));
    const audit = await auditEntriesOf(server.orm.em.fork(), order.orderId);
    expect(audit.length).toBe(auditBefore + 1);
    expect(audit.at(-1)).toMatchObject({
      action: 'COVER_EXTENDED',
      details: expect.objectContaining({ amendmentRef: amendment.amendmentRef, paymentRef: amendment.paymentRef }),
    });
    const events = await extendedEvents(order);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      type: 'order.extended',
      data: {
        orderRef: order.orderRef,
        amendmentRef: amendment.amendmentRef,
        paymentRef: amendment.paymentRef,
        amountPaid: 1050,
        coverageEndDate: addDays(lastDay, 3),
        previousCoverageEndDate: lastDay,
      },
    });
    // The certificate counts the extension as an amendment: version 2, the new window.
    const certificate = await fetch(new URL(`${ORDERS}/${order.orderRef}/certificate`, serverBehind(server.url)), {
      headers: { authorization: `Bearer ${agency.token}` },
    });
    expectStatus(certificate, 200);
    const pdf = Buffer.from(await certificate.arrayBuffer());
    await expectContract('getOrderCertificate', 200, pdf.toString('latin1'));
    const read = await readPdf(pdf);
    expect(read.text).toContain(`${departure} to ${addDays(lastDay, 3)}`);
    expect(read.text).toContain(
      `Version 2, amended ${kathmanduToday(row.appliedAt!)}: cover extended from ${lastDay} to ${addDays(lastDay, 3)}`,
    );
    expect(certificate.headers.get('content-disposition')).toBe(`attachment; filename="${after.policyNumber}-v2.pdf"`);
    // The order's payment status still reports the payment that paid the order, not the top-up.
    const status = await paymentStatus(client, agency, order.orderRef);
    expectStatus(status, 200);
    expect(status.body.data).toMatchObject({ paymentRef: order.paymentRef, orderStatus: 'PAID' });
    // A retry of the request with its key, after the extension applied, answers the same extension, now applied.
    const retried = await extend(order.orderRef, { extraDays: 3 }, key);
    expectStatus(retried, 200);
    expect(retried.body.data).toMatchObject({ amendmentRef: amendment.amendmentRef, status: 'APPLIED' });
    // The next extension is priced against everything paid: 4,500.00 and the 1,050.00 top-up.
    const next = await preview(order.orderRef, { extraDays: 1 });
    expect(next.body.data).toMatchObject({ premiumPaid: 5550, newPremium: 5900, amountDue: 350, allowed: true });
  });

  it('when the top-up is captured after the current cover ended (test clock), then the extension is NOT_APPLIED and the money is refunded as a late capture', async () => {
    const order = await paidOrder();
    await setClock(lastDay);
    const response = await extend(order.orderRef, { extraDays: 2 });
    expectStatus(response, 200);
    const { paymentRef, amendmentRef } = response.body.data;

    await setClock(addDays(lastDay, 1));
    expectStatus(await capture(paymentRef), 200);

    expect((await detail(order.orderRef)).coverageEndDate).toBe(lastDay);
    const em = server.orm.em.fork();
    expect((await em.findOneOrFail(OrderAmendment, { amendmentRef })).status).toBe('NOT_APPLIED');
    const attempt = await em.findOneOrFail(PaymentAttempt, { paymentRef });
    expect(attempt).toMatchObject({ status: 'REFUND_PENDING', refundAmount: 70_000, refundReason: 'COVER_ENDED' });
    const refunds = await em.find(Refund, { attempt: attempt.id });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ cause: 'LATE_CAPTURE', amount: 70_000 });
    expect(await extendedEvents(order)).toHaveLength(0);
    expect(await em.count(WebhookEvent, { type: 'payment.refund_pending', payload: { data: { paymentRef } } })).toBe(1);
  });

  it('when nothing is due, then the extension applies at once without a payment, and a retry with the same key answers it again', async () => {
    const order = await paidOrder();
    // An order priced above the package's pricing today (a catalogue price lowered since): the new premium is below what was paid.
    const em = server.orm.em.fork();
    await em.nativeUpdate(Order, { id: order.orderId }, { packagePrice: 900_000 });
    const key = randomUUID();
    const response = await extend(order.orderRef, { extraDays: 2 }, key);
    await em.nativeUpdate(Order, { id: order.orderId }, { packagePrice: 450_000 });
    expectStatus(response, 200);
    // 9 days cost 4,500.00 + 2 x 350.00 = 5,200.00 by the package; at the order's paid share (4,500 of 9,000) 2,600.00.
    expect(response.body.data).toMatchObject({
      status: 'APPLIED',
      coverageEndDate: addDays(lastDay, 2),
      newPremium: 2600,
      amountDue: 0,
      paymentRef: null,
      paymentUrl: null,
      appliedAt: expect.any(String),
    });
    expect((await detail(order.orderRef)).coverageEndDate).toBe(addDays(lastDay, 2));
    expect(await extendedEvents(order)).toHaveLength(1);
    expect((await extend(order.orderRef, { extraDays: 2 }, key)).body.data).toEqual(response.body.data);
    expect((await writtenFor(order)).amendments).toBe(1);
  });

  it('when the top-up is declined, then its extension expires with its checkout and no longer holds the order: the next extension request goes ahead', async () => {
    const order = await paidOrder();
    const first = (await extend(order.orderRef, { extraDays: 2 })).body.data;
    const declined = await client.op(
      'setSandboxPaymentOutcome',
      'POST',
      `/api/external/v1/sandbox/payments/${first.paymentRef}/outcome`,
      { outcome: 'DECLINED' },
      { token: agency.token },
    );
    expectStatus(declined, 200);
    // Expired when its checkout ended, before any other request.
    expect((await amendmentRow(first.amendmentRef)).status).toBe('EXPIRED');
    const second = await extend(order.orderRef, { extraDays: 2 });
    expectStatus(second, 200);
    expect(second.body.data).toMatchObject({ amendmentRef: `${order.orderRef}-EXT-2`, status: 'AWAITING_PAYMENT' });
    expect((await amendmentRow(first.amendmentRef)).status).toBe('EXPIRED');
    expect((await detail(order.orderRef)).coverageEndDate).toBe(lastDay);
  });

  it("when the top-up's checkout expires unpaid (PAYMENT_ATTEMPT_TTL_MINUTES), then its extension is EXPIRED with it and the order may be extended anew", async () => {
    const order = await paidOrder();
    const first = (await extend(order.orderRef, { extraDays: 2 })).body.data;
    await watchDueAttempts(server.orm.em.fork(), server.payments, new Date(Date.now() + 16 * 60_000));
    const em = server.orm.em.fork();
    expect((await em.findOneOrFail(PaymentAttempt, { paymentRef: first.paymentRef })).status).toBe('EXPIRED');
    expect((await amendmentRow(first.amendmentRef)).status).toBe('EXPIRED');
    const next = await preview(order.orderRef, { extraDays: 2 });
    expect(next.body.data).toMatchObject({ allowed: true, refusal: null });
    expect((await detail(order.orderRef)).coverageEndDate).toBe(lastDay);
  });

  it('when the cover has ended (test clock), then the extension is a 400 COVER_ENDED and nothing is written', async () => {
    const order = await paidOrder();
    await setClock(addDays(lastDay, 1));
    const before = await writtenFor(order);
    expectCode(await extend(order.orderRef, { extraDays: 2 }), 400, 'COVER_ENDED');
    expect(await writtenFor(order)).toEqual(before);
  });

  it('when the order is unpaid, the end is not later or the cover too long, then it is a 400 with its code and nothing is written', async () => {
    const unpaid = await placeOrder(server, client, agency);
    expectCode(await extend(unpaid.orderRef, { extraDays: 2 }), 400, 'ORDER_NOT_PAID');
    const order = await paidOrder();
    const before = await writtenFor(order);
    expectCode(await extend(order.orderRef, { coverageEndDate: lastDay }), 400, 'EXTENSION_NOT_LATER');
    expectCode(await extend(order.orderRef, { coverageEndDate: addDays(departure, 365) }), 400, 'EXTENSION_TOO_LONG');
    expect(await writtenFor(order)).toEqual(before);
  });
});

describe('the invariant checker after extensions', () => {
  it('finds nothing wrong after an extension applied by its top-up and one refunded as a late capture', async () => {
    // The orders above: applied top-ups, a late one refunded, refused ones.
    const { stdout } = await promisify(execFile)(process.execPath, [CHECKER], {
      env: { ...process.env, DATABASE_URL: databaseUrl() },
    });
    expect(stdout).toContain('invariants: 0 violations');
  });
});
