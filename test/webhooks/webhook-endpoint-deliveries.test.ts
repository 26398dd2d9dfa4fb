import type { WireJson } from '../support/http-client';
import { first } from '../support/elements';
import { eventually } from '../support/eventually';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  deliverCallback,
  pay,
  paymentStatus,
  placeOrder,
  RETURN_URL,
  submitCheckout,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

// Tries a second apart and three of them in all, so that a failing receiver exhausts them quickly.
// Its own database: any server on a shared one runs the delivery queue too, with its own (slower)
// retry delays and more tries.
const { server, client } = useTestServer({
  ownDatabase: 'webhook_deliveries',
  // Background jobs on: the delivery log fills from the webhook delivery workers' tries.
  backgroundJobs: true,
  env: {
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
    WEBHOOK_RETRY_DELAY_SECONDS: '1',
    WEBHOOK_RETRY_DELAY_MAX_SECONDS: '1',
    WEBHOOK_RETRY_LIMIT: '2',
  },
});
const api = webhookApi(client);
const receivers: WebhookReceiver[] = [];

afterAll(async () => {
  for (const receiver of receivers) await receiver.stop();
});

/** A receiver registered through the API for `events`; it verifies with the secret the API answered. */
async function registered(
  partner: TestPartner,
  events: string[],
): Promise<{ receiver: WebhookReceiver; endpointId: string }> {
  const receiver = new WebhookReceiver();
  receivers.push(receiver);
  const created = await api.create(partner, { url: await receiver.start(), events });
  expectStatus(created, 201);
  receiver.secret = created.body.data.secret;
  return { receiver, endpointId: created.body.data.endpointId };
}

async function payByCard(partner: TestPartner, orderRef: string): Promise<void> {
  const started = (await pay(client, partner, orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body.data;
  const result = await submitCheckout(started.paymentUrl, APPROVE_CARD);
  expectStatus(await deliverCallback(client, result.callbackUrl!), 303);
}

/** The delivery log's page for a query, once `ready` holds for it. */
async function logWhen(
  partner: TestPartner,
  query: Record<string, string>,
  ready: (content: WireJson[]) => boolean,
): Promise<WireJson[]> {
  return eventually(async () => (await api.deliveries(partner, query)).body.data.content as WireJson[], ready, {
    timeoutMs: 30_000,
  });
}

describe('webhook endpoints registered through the API', () => {
  it('when an order is paid, then each enabled endpoint subscribed to order.paid gets one order.paid with the policy number, verified by the Standard Webhooks library; the others get nothing', async () => {
    const partner = await newPartner(server, client);
    const paid = await registered(partner, ['order.paid']);
    const everything = await registered(partner, ['*']);
    const failuresOnly = await registered(partner, ['payment.failed']);
    const disabled = await registered(partner, ['order.paid']);
    expectStatus(await api.update(partner, disabled.endpointId, { enabled: false }), 200);

    const order = await placeOrder(server, client, partner);
    await payByCard(partner, order.orderRef);
    await paid.receiver.waitFor(() => paid.receiver.unique('order.paid').length === 1);
    await everything.receiver.waitFor(() => everything.receiver.unique('order.paid').length === 1);
    const event = first(paid.receiver.unique('order.paid'), 'the order.paid events');
    const { policyNumber } = (await paymentStatus(client, partner, order.orderRef)).body.data;
    expect(policyNumber).toMatch(/^SBX-POL-\d{4}-\d+$/);
    expect(event.data).toEqual(
      expect.objectContaining({
        orderRef: order.orderRef,
        orderStatus: 'PAID',
        paymentStatus: 'SUCCESS',
        policyNumber,
      }),
    );
    // One event, one id, one delivery per subscribed endpoint.
    expect(first(everything.receiver.unique('order.paid'), 'the order.paid events').id).toBe(event.id);

    const log = await logWhen(
      partner,
      { eventType: 'order.paid' },
      (content) => content.length === 2 && content.every((d) => d.status === 'SUCCEEDED'),
    );
    expect(log.map((delivery) => delivery.endpointId).sort()).toEqual([paid.endpointId, everything.endpointId].sort());
    for (const delivery of log) {
      expect(delivery).toEqual(
        expect.objectContaining({ eventId: event.id, eventType: 'order.paid', nextRetryAt: null }),
      );
      expect(delivery.tries).toEqual([expect.objectContaining({ attempt: 1, responseStatus: 204, error: null })]);
      expect(delivery.tries[0].latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(failuresOnly.receiver.answered + disabled.receiver.answered).toBe(0);
    expect(paid.receiver.rejected + everything.receiver.rejected).toBe(0);
  });

  it('when the receiver keeps failing, then the log shows each failed try with its status and the next retry, ends FAILED, and a retry from the log delivers it', async () => {
    const partner = await newPartner(server, client);
    const { receiver, endpointId } = await registered(partner, ['webhook.test']);
    receiver.failFirst = 1_000;
    const queued = await api.test(partner, endpointId);
    expectStatus(queued, 202);
    expect(queued.body.data).toEqual(
      expect.objectContaining({ endpointId, eventType: 'webhook.test', status: 'PENDING', tries: [] }),
    );
    const { deliveryId } = queued.body.data;

    // While it retries, the log names the next try.
    const retrying = first(await logWhen(partner, { endpointId }, ([d]) => d?.tries.length === 1), 'the log');
    expect(retrying.status).toBe('PENDING');
    expect(Date.parse(retrying.nextRetryAt)).toBeGreaterThan(Date.parse(retrying.tries[0].at));
    const failed = await logWhen(partner, { endpointId, status: 'FAILED' }, (content) => content.length === 1);
    const gaveUp = first(failed, 'the failed deliveries');
    expect(gaveUp.deliveryId).toBe(deliveryId);
    expect(gaveUp.tries.map((t: Record<string, unknown>) => [t.attempt, t.responseStatus, t.error])).toEqual([
      [1, 500, 'answered 500'],
      [2, 500, 'answered 500'],
      [3, 500, 'answered 500'],
    ]);
    expect(gaveUp.nextRetryAt).toBeNull();
    expect(receiver.verified).toHaveLength(0);

    receiver.failFirst = 0;
    const retried = await api.retry(partner, deliveryId);
    expectStatus(retried, 202);
    expect(retried.body.data).toEqual(expect.objectContaining({ deliveryId, status: 'PENDING' }));
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 1);
    const [delivered] = await logWhen(partner, { endpointId, status: 'SUCCEEDED' }, (content) => content.length === 1);
    expect(delivered?.tries.map((t: Record<string, unknown>) => [t.attempt, t.responseStatus])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 204],
    ]);
    expect(first(receiver.unique('webhook.test'), 'the test events').id).toBe(gaveUp.eventId);
  }, 60_000);

  it('when the secret is rotated, then during the overlap a delivery verifies under the old secret and under the new one', async () => {
    const partner = await newPartner(server, client);
    const { receiver, endpointId } = await registered(partner, ['order.paid']);
    const oldSecret = receiver.secret;
    const rotated = await api.rotate(partner, endpointId);
    expectStatus(rotated, 200);
    const newSecret: string = rotated.body.data.secret;

    // The receiver still verifies with the old secret only.
    await api.test(partner, endpointId);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 1);
    receiver.secret = newSecret;
    await api.test(partner, endpointId);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 2);
    expect(oldSecret).not.toBe(newSecret);
    expect(receiver.rejected).toBe(0);
  });

  it('when an endpoint is disabled, then its pending delivery ends FAILED without a request, and a retry is a 409 until it is enabled again', async () => {
    const partner = await newPartner(server, client);
    const { receiver, endpointId } = await registered(partner, ['*']);
    await api.update(partner, endpointId, { enabled: false });
    const { deliveryId } = (await api.test(partner, endpointId)).body.data;
    const [failed] = await logWhen(partner, { endpointId, status: 'FAILED' }, (content) => content.length === 1);
    expect(failed?.tries).toEqual([expect.objectContaining({ responseStatus: null, error: 'endpoint is disabled' })]);
    expect(receiver.answered).toBe(0);
    expectStatus(await api.retry(partner, deliveryId), 409);
    await api.update(partner, endpointId, { enabled: true });
    expectStatus(await api.retry(partner, deliveryId), 202);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 1);
  });
});
