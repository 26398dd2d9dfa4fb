import { randomUUID } from 'node:crypto';
import { Order } from '../../src/modules/orders/entities/order';
import { WebhookDelivery } from '../../src/modules/webhooks/entities/webhook-delivery';
import { WebhookDeliveryTry } from '../../src/modules/webhooks/entities/webhook-delivery-try';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { replayEvents, rotateSecret, setEndpoint, sendTestEvent } from '../../src/modules/webhooks/endpoints';
import { first } from '../support/elements';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  DECLINE_CARD,
  deliverCallback,
  groupPayPath,
  pay,
  placeGroup,
  placeOrder,
  RETURN_URL,
  submitCheckout,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { eventually } from '../support/eventually';
import { expectStatus } from '../support/expect-status';

// Its own database: any server on a shared one runs the delivery queue too, with its own (slower) retry delays.
// Background jobs on: deliveries and their retries are the webhook relay's and delivery workers' work.
const { server, client } = useTestServer({
  ownDatabase: 'webhooks',
  env: { WEBHOOK_RETRY_DELAY_SECONDS: '1', WEBHOOK_RETRY_DELAY_MAX_SECONDS: '2' },
  backgroundJobs: true,
});

/** A partner with its own endpoint on a local receiver. */
async function subscribedPartner(receiver: WebhookReceiver): Promise<TestPartner> {
  const partner = await newPartner(server, client);
  const url = await receiver.start();
  const endpoint = await setEndpoint(server.orm.em.fork(), partner.companyId, url, { allowLocalEndpoints: true });
  receiver.secret = endpoint.secret ?? '';
  return partner;
}

async function checkout(partner: TestPartner, identifier: string, form: Record<string, string>) {
  const started = (await pay(client, partner, identifier, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body
    .data;
  const result = await submitCheckout(started.paymentUrl, form);
  expectStatus(await deliverCallback(client, result.callbackUrl!), 303);
  return started;
}

describe('partner webhooks', () => {
  it('when an order is paid, then its endpoint gets one order.paid verified by the Standard Webhooks library, with what a partner needs to act', async () => {
    const receiver = new WebhookReceiver();
    const partner = await subscribedPartner(receiver);
    const order = await placeOrder(server, client, partner);
    const started = await checkout(partner, order.orderRef, APPROVE_CARD);
    await receiver.waitFor(() => receiver.unique('order.paid').length === 1);
    const event = first(receiver.unique('order.paid'), 'the order.paid events');
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(event.data).toEqual({
      orderId: order.orderId,
      orderRef: order.orderRef,
      orderNumber: order.orderNumber,
      orderStatus: 'PAID',
      groupRef: null,
      amount: order.totalAmount,
      currency: 'NPR',
      paymentRef: started.paymentRef,
      paymentStatus: 'SUCCESS',
      paymentMethod: 'CARD_GATEWAY',
      paymentAmount: order.totalAmount,
      reason: null,
      policyNumber: expect.stringMatching(/^SBX-POL-\d{4}-\d+$/),
    });
    // The receiver has the event before the sender has recorded its answer: wait for the record.
    await receiver.waitFor(
      async () =>
        (await server.orm.em.fork().findOneOrFail(WebhookDelivery, { eventId: event.id })).status === 'SUCCEEDED',
    );
    const log = await server.orm.em.fork().find(WebhookDeliveryTry, { eventId: event.id });
    expect(log).toEqual([expect.objectContaining({ outcome: 'DELIVERED', responseCode: 204, nextRetryAt: null })]);
    expect(receiver.rejected).toBe(0);
    await receiver.stop();
  });

  it('when the receiver fails its first three answers, then the queue retries with back-off until it gets the event, and the log shows each try', async () => {
    const receiver = new WebhookReceiver();
    receiver.failFirst = 3;
    const partner = await subscribedPartner(receiver);
    const order = await placeOrder(server, client, partner);
    await checkout(partner, order.orderRef, DECLINE_CARD);
    await receiver.waitFor(() => receiver.unique('payment.failed').length === 1, 40_000);
    const event = first(receiver.unique('payment.failed'), 'the payment.failed events');
    expect(event.data).toEqual(
      expect.objectContaining({ orderRef: order.orderRef, orderStatus: 'PENDING', paymentStatus: 'FAILED' }),
    );
    const logOf = () =>
      server.orm.em.fork().find(WebhookDeliveryTry, { eventId: event.id }, { orderBy: { attempt: 'asc' } });
    // The fourth try is logged once the receiver's answer is back at the sender.
    await receiver.waitFor(async () => (await logOf()).length === 4);
    const log = await logOf();
    expect(log.map((line) => [line.attempt, line.outcome, line.responseCode])).toEqual([
      [1, 'FAILED', 500],
      [2, 'FAILED', 500],
      [3, 'FAILED', 500],
      [4, 'DELIVERED', 204],
    ]);
    expect(first(log, 'the delivery log').nextRetryAt).toBeInstanceOf(Date);
    await receiver.stop();
  }, 60_000);

  it('when a group is paid in one attempt, then each order gets its own order.paid with its share and the group reference', async () => {
    const receiver = new WebhookReceiver();
    const partner = await subscribedPartner(receiver);
    const group = await placeGroup(server, client, partner, 2);
    const started = (
      await client.op(
        'payGroup',
        'POST',
        groupPayPath(group.groupRef),
        { gateway: 'card_gateway' },
        { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
      )
    ).body.data;
    const result = await submitCheckout(started.paymentUrl, APPROVE_CARD);
    // Without a returnUrl the callback answers with a page rather than a redirect; what matters is that it recorded the capture.
    expect((await deliverCallback(client, result.callbackUrl!)).status).toBeLessThan(400);
    await receiver.waitFor(() => receiver.unique('order.paid').length === 2);
    const events = receiver.unique('order.paid');
    expect(events.map((event) => event.data.orderRef).sort()).toEqual(
      group.orders.map((order) => order.orderRef).sort(),
    );
    for (const event of events)
      expect(event.data).toEqual(
        expect.objectContaining({ groupRef: group.groupRef, amount: 4500, paymentAmount: 9000 }),
      );
    await receiver.stop();
  });

  it('when an operator cancels an order, then order.cancelled arrives; a change that rolls back announces nothing', async () => {
    const receiver = new WebhookReceiver();
    const partner = await subscribedPartner(receiver);
    const order = await placeOrder(server, client, partner);
    await cancelFromCommandLine(server.orm.em.fork(), order.orderRef, 'test', server.payments);
    await receiver.waitFor(() => receiver.unique('order.cancelled').length === 1);
    expect(first(receiver.unique('order.cancelled'), 'the order.cancelled events').data).toEqual(
      expect.objectContaining({ orderRef: order.orderRef, orderStatus: 'CANCELLED', paymentRef: null }),
    );
    // A second cancel is refused inside its transaction: no event row survives it.
    await expect(
      cancelFromCommandLine(server.orm.em.fork(), order.orderRef, 'test', server.payments),
    ).rejects.toThrow();
    expect(
      await server.orm.em.fork().count(WebhookEvent, { companyId: partner.companyId, type: 'order.cancelled' }),
    ).toBe(1);
    expect((await server.orm.em.fork().findOneOrFail(Order, order.orderId)).status).toBe('CANCELLED');
    await receiver.stop();
  });

  it('when the secret is rotated, then deliveries carry both signatures during the overlap, so a verifier on either secret accepts them', async () => {
    const receiver = new WebhookReceiver();
    const partner = await subscribedPartner(receiver);
    const oldSecret = receiver.secret;
    const rotated = await rotateSecret(server.orm.em.fork(), partner.companyId, 24);
    expect(rotated.secret).toMatch(/^whsec_/);
    await sendTestEvent(server.orm.em.fork(), partner.companyId);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 1);
    receiver.secret = rotated.secret ?? '';
    await sendTestEvent(server.orm.em.fork(), partner.companyId);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 2);
    expect(oldSecret).not.toBe(rotated.secret);
    expect(receiver.rejected).toBe(0);
    await receiver.stop();
  });

  it('when the operator replays an event, then its endpoint gets it again with the same id, as a further try of the same delivery', async () => {
    const receiver = new WebhookReceiver();
    const partner = await subscribedPartner(receiver);
    const { eventId, deliveryId } = await sendTestEvent(server.orm.em.fork(), partner.companyId);
    await receiver.waitFor(() => receiver.verified.length === 1);
    const succeeded = async () =>
      (await server.orm.em.fork().findOneOrFail(WebhookDelivery, deliveryId)).status === 'SUCCEEDED';
    await receiver.waitFor(succeeded);
    expect(await replayEvents(server.orm.em.fork(), { eventId })).toEqual({ replayed: [eventId] });
    await receiver.waitFor(() => receiver.verified.length === 2);
    expect(receiver.unique().map((event) => event.id)).toEqual([eventId]);
    await receiver.waitFor(async () => (await server.orm.em.fork().count(WebhookDeliveryTry, { deliveryId })) === 2);
    expect(await server.orm.em.fork().count(WebhookDelivery, { eventId })).toBe(1);
    await receiver.stop();
  });

  it('when a company has no endpoint, then its events are kept as NO_ENDPOINT and nothing is sent', async () => {
    const partner = await newPartner(server, client);
    const order = await placeOrder(server, client, partner);
    await cancelFromCommandLine(server.orm.em.fork(), order.orderRef, 'test', server.payments);
    const statusNow = async () =>
      (await server.orm.em.fork().findOneOrFail(WebhookEvent, { companyId: partner.companyId })).status;
    expect(await eventually(statusNow, (status) => status === 'NO_ENDPOINT')).toBe('NO_ENDPOINT');
  });
});
