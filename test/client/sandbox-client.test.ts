import { randomUUID } from 'node:crypto';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import {
  createPartnerClient,
  sandboxCalls,
  type ExtensionPreviewResult,
  type ExtensionResult,
  type GroupExtensionPreviewResult,
  type GroupExtensionResult,
} from '../../clients/typescript/src';
import { newPartner, type TestPartner } from '../support/partners';
import { placeGroup, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/** The typed client's sandbox helpers: a payment captured, the clock moved past the free look, a cancellation with the fee, its refund failed, an event sent. */
const { server, client } = useTestServer();
let partner: TestPartner;

const typedClient = () =>
  createPartnerClient({ baseUrl: server.url, clientId: partner.clientId, clientSecret: partner.clientSecret });

beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Typed Sandbox Treks' });
});

describe('sandboxCalls of the typed client', () => {
  it('drives a payment, the clock, a refund and an event from code', async () => {
    const partnerClient = typedClient();
    const sandbox = sandboxCalls(partnerClient.api);
    const { orderRef, totalAmount } = await placeOrder(server, client, partner);
    const started = await partnerClient.pay(orderRef, { gateway: 'wallet_gateway', returnUrl: RETURN_URL });
    const paid = await sandbox.decidePayment(started.data!.data.paymentRef, 'CAPTURED');
    expect(paid.data?.data).toMatchObject({ orderRef, orderStatus: 'PAID' });

    const clockToday = addDays(kathmanduToday(), 15);
    expect((await sandbox.setClock(clockToday)).data?.data.today).toBe(clockToday);
    expect((await sandbox.readClock()).response.headers.get('sandbox-today')).toBe(clockToday);
    const cancelled = await partnerClient.cancel(
      orderRef,
      { reason: 'TRIP_CANCELLED' },
      { idempotencyKey: randomUUID() },
    );
    expect(cancelled.data?.data.refund).toMatchObject({ cancellationFee: totalAmount / 10, status: 'MANUAL' });
    const failed = await sandbox.answerRefund(cancelled.data!.data.refund!.refundRef, 'FAILED');
    expect(failed.data?.data.status).toBe('FAILED');
    expect((await sandbox.resetClock()).data?.data.today).toBeNull();

    const sent = await sandbox.sendEvent('order.amended', orderRef);
    expectStatus(sent.response, 202);
    expect(sent.data?.data.eventId).toMatch(/^evt_[0-9a-f]{32}$/);
    const refused = await sandbox.decidePayment(started.data!.data.paymentRef, 'DECLINED');
    expect(refused.error).toMatchObject({ code: 'PAYMENT_ALREADY_FINAL' });
  });

  it("extends a running cover from a partner's CI: the test clock inside the cover, the preview, the extension and its top-up paid through the sandbox helper", async () => {
    const partnerClient = typedClient();
    const sandbox = sandboxCalls(partnerClient.api);
    const { orderRef } = await placeOrder(server, client, partner);
    const started = await partnerClient.pay(orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    await sandbox.decidePayment(started.data!.data.paymentRef, 'CAPTURED');
    const before = (await partnerClient.getOrder(orderRef)).data!.data;
    // The trek is on its third day when the partner hears it runs long.
    await sandbox.setClock(addDays(before.coverageStartDate, 2));
    try {
      const preview: ExtensionPreviewResult = await partnerClient.previewExtension(orderRef, { extraDays: 3 });
      expect(preview.data?.data).toMatchObject({
        coverageEndDate: addDays(before.coverageEndDate, 3),
        amountDue: 1050,
        allowed: true,
      });
      const extended: ExtensionResult = await partnerClient.extend(orderRef, {
        extraDays: 3,
        gateway: 'card_gateway',
        returnUrl: RETURN_URL,
      });
      const extension = extended.data!.data;
      expect(extension).toMatchObject({ status: 'AWAITING_PAYMENT', amountDue: 1050 });
      const paid = await sandbox.decidePayment(extension.paymentRef!, 'CAPTURED');
      expectStatus(paid.response, 200);
      const after = (await partnerClient.getOrder(orderRef)).data!.data;
      expect(after).toMatchObject({ coverageEndDate: addDays(before.coverageEndDate, 3), topUpAmount: 1050 });
      expect((await partnerClient.paymentStatus(orderRef)).data?.data.topUps).toEqual([
        expect.objectContaining({ paymentRef: extension.paymentRef, paymentStatus: 'SUCCESS' }),
      ]);
    } finally {
      await sandbox.resetClock();
    }
  });

  it('extends a whole group by one top-up: the preview, the extension with its one payment, paid through the sandbox helper', async () => {
    const partnerClient = typedClient();
    const sandbox = sandboxCalls(partnerClient.api);
    const { groupRef, orders } = await placeGroup(server, client, partner, 2);
    const paidGroup = await partnerClient.payGroup(groupRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    await sandbox.decidePayment(paidGroup.data!.data.paymentRef, 'CAPTURED');
    const before = (await partnerClient.getOrder(orders[0]!.orderRef)).data!.data;
    const preview: GroupExtensionPreviewResult = await partnerClient.previewGroupExtension(groupRef, { extraDays: 3 });
    expect(preview.data?.data).toMatchObject({ groupRef, amountDue: 2100, allowed: true, skipped: [] });
    const extended: GroupExtensionResult = await partnerClient.extendGroup(groupRef, {
      extraDays: 3,
      gateway: 'card_gateway',
      returnUrl: RETURN_URL,
    });
    const extension = extended.data!.data;
    expect(extension).toMatchObject({ status: 'AWAITING_PAYMENT', amountDue: 2100 });
    expect(extension.members.map((member) => member.amountDue)).toEqual([1050, 1050]);
    expectStatus((await sandbox.decidePayment(extension.paymentRef!, 'CAPTURED')).response, 200);
    for (const { orderRef } of orders)
      expect((await partnerClient.getOrder(orderRef)).data!.data).toMatchObject({
        coverageEndDate: addDays(before.coverageEndDate, 3),
        topUpAmount: 1050,
      });
  });
});
