import { randomUUID } from 'node:crypto';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { CommissionEntry } from '../../src/modules/commissions/entities/commission-entry';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { paymentStatus, placeOrder, paidThroughSandbox, cancelledByOwner } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * POST /sandbox/refunds/{refundRef}/outcome (decision records 0083 and
 * 0075): the sandbox provider answers a refund that is not final, through the refunds module's
 * one writer: the share's settlement, the commission taken back, the audit entry and the event.
 * client.op checks every body against the spec's schema for its status.
 */
const { server, client } = useTestServer();
let agency: TestPartner;
let stranger: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Sandbox Refund Treks Pvt. Ltd.' });
  stranger = await newPartner(server, client, { name: 'Stranger Refund Outcome Treks' });
});

const outcomePath = (refundRef: string) => `/api/external/v1/sandbox/refunds/${encodeURIComponent(refundRef)}/outcome`;
const answer = (caller: TestPartner, refundRef: string, outcome: string) =>
  client.op('setSandboxRefundOutcome', 'POST', outcomePath(refundRef), { outcome }, { token: caller.token });

/** A wallet payment, captured through the sandbox helper, then cancelled: the sandbox wallet refunds only by hand (MANUAL). */
async function manualRefund() {
  const { order, paymentRef } = await paidThroughSandbox(server, client, agency, 'wallet_gateway');
  const cancelled = await cancelledByOwner(client, agency, order.orderRef);
  expectStatus(cancelled, 200);
  expect(cancelled.body.data.refund.status).toBe('MANUAL');
  return { order, paymentRef, refundRef: cancelled.body.data.refund.refundRef as string };
}

const refundEvents = async (refundRef: string) =>
  (
    await server.orm.em
      .fork()
      .find(WebhookEvent, { companyId: agency.companyId, type: { $in: ['refund.succeeded', 'refund.failed'] } })
  )
    .filter((event) => (event.payload.data as { refundRef?: string }).refundRef === refundRef)
    .map((event) => [event.type, (event.payload.data as { status?: string }).status]);

describe('POST /sandbox/refunds/{refundRef}/outcome', () => {
  it('when a MANUAL refund is answered SUCCEEDED, then it is SUCCEEDED, the payment reads REFUNDED, the commission is taken back and refund.succeeded is sent', async () => {
    const { order, paymentRef, refundRef } = await manualRefund();
    const response = await answer(agency, refundRef, 'SUCCEEDED');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      refundRef,
      status: 'SUCCEEDED',
      orderRef: order.orderRef,
      paymentRef,
      gateway: 'WALLET_GATEWAY',
      cause: 'CANCELLATION',
    });
    expect(response.body.data.completedAt).not.toBeNull();
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      paymentStatus: 'REFUNDED',
      refund: { refundRef, status: 'SUCCEEDED' },
    });
    const reversed = await server.orm.em.fork().find(CommissionEntry, { refundRef, kind: 'REVERSED' });
    expect(reversed.length).toBeGreaterThan(0);
    expect(await refundEvents(refundRef)).toEqual([['refund.succeeded', 'SUCCEEDED']]);
  });

  it('when a MANUAL refund is answered FAILED, then it is FAILED, refund.failed is sent and no commission is taken back', async () => {
    const { order, refundRef } = await manualRefund();
    const response = await answer(agency, refundRef, 'FAILED');
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ refundRef, status: 'FAILED', orderRef: order.orderRef });
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      paymentStatus: 'REFUND_FAILED',
      refund: { refundRef, status: 'FAILED' },
    });
    expect(await server.orm.em.fork().count(CommissionEntry, { refundRef })).toBe(0);
    expect(await refundEvents(refundRef)).toEqual([['refund.failed', 'FAILED']]);
  });

  it('when the refund is already final, then 409 REFUND_ALREADY_FINAL and it keeps its status', async () => {
    const { refundRef } = await manualRefund();
    expectStatus(await answer(agency, refundRef, 'FAILED'), 200);
    const again = await answer(agency, refundRef, 'SUCCEEDED');
    expectStatus(again, 409);
    expect(again.body).toMatchObject({
      code: 'REFUND_ALREADY_FINAL',
      message: `Refund ${refundRef} is already FAILED: a refund is decided once. To test the other outcome, cancel another paid order and decide its refund`,
    });
    expect(
      (await client.op('getRefund', 'GET', `/api/external/v1/refunds/${refundRef}`, undefined, { token: agency.token }))
        .body.data.status,
    ).toBe('FAILED');
  });

  it('when the refund is of a cash payment, then 409 SANDBOX_PROVIDER_REQUIRED: the sandbox provider does not give cash back', async () => {
    const order = await placeOrder(server, client, agency, { settlementType: 'CASH' });
    await recordCashPayment(
      server.orm.em.fork(),
      order.orderRef,
      { amount: Math.round(order.totalAmount * 100) },
      'operator-cli:test',
    );
    const cancelled = await client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${order.orderRef}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    const { refundRef } = cancelled.body.data.refund;
    const response = await answer(agency, refundRef, 'SUCCEEDED');
    expectStatus(response, 409);
    expect(response.body.code).toBe('SANDBOX_PROVIDER_REQUIRED');
    expect(
      (await client.op('getRefund', 'GET', `/api/external/v1/refunds/${refundRef}`, undefined, { token: agency.token }))
        .body.data.status,
    ).toBe('MANUAL');
  });

  it('when another company names the refund, then 404 as for an unknown one, and the refund stays MANUAL', async () => {
    const { refundRef } = await manualRefund();
    const response = await answer(stranger, refundRef, 'SUCCEEDED');
    expectStatus(response, 404);
    expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: `Refund ${refundRef} not found` });
    expectStatus(await answer(agency, 'RFD-2030-999999', 'SUCCEEDED'), 404);
    expect(
      (await client.op('getRefund', 'GET', `/api/external/v1/refunds/${refundRef}`, undefined, { token: agency.token }))
        .body.data.status,
    ).toBe('MANUAL');
  });

  it('when the outcome is neither SUCCEEDED nor FAILED, then 400 naming the field', async () => {
    const response = await answer(agency, 'RFD-2030-000001', 'MANUAL');
    expectStatus(response, 400);
    expect(Object.keys(response.body.details.fieldErrors)).toEqual(['outcome']);
  });
});
