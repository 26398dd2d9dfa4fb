import { createPartnerClient } from '../../clients/typescript/src';
import { expectContract } from '../support/contract';
import { newPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { expectStatus } from '../support/expect-status';

// Background jobs on: the test events reach the receiver through the webhook delivery workers.
const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' }, backgroundJobs: true });

describe("the typed client's webhook calls", () => {
  it('register an endpoint, send it a test the receiver verifies, iterate the delivery log page after page, retry, rotate, change and delete', async () => {
    const partner = await newPartner(server, client);
    const typed = createPartnerClient({
      baseUrl: server.url,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
    });
    const receiver = new WebhookReceiver();
    const created = await typed.webhooks.create({
      url: await receiver.start(),
      events: ['webhook.test'],
      description: 'typed client',
    });
    await expectContract('createWebhookEndpoint', created.response.status, created.data);
    const endpoint = created.data!.data;
    receiver.secret = endpoint.secret;

    for (let i = 0; i < 3; i++) expectStatus(await typed.webhooks.sendTest(endpoint.endpointId), 202);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 3);
    const seen: string[] = [];
    for await (const delivery of typed.webhooks.deliveries({ endpointId: endpoint.endpointId, size: 2 }))
      seen.push(delivery.deliveryId);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);

    const listed = await typed.webhooks.listDeliveries({ eventType: 'webhook.test', size: 1 });
    expect(listed.data?.data).toEqual(expect.objectContaining({ totalElements: 3, totalPages: 3 }));
    expectStatus(await typed.webhooks.retryDelivery(seen[0]!), 202);
    await receiver.waitFor(() => receiver.verified.length === 4);

    const rotated = await typed.webhooks.rotateSecret(endpoint.endpointId);
    expect(rotated.data?.data.secret).toMatch(/^whsec_/);
    const changed = await typed.webhooks.update(endpoint.endpointId, { enabled: false });
    expect(changed.data?.data.enabled).toBe(false);
    expect((await typed.webhooks.list()).data?.data).toHaveLength(1);
    expect((await typed.webhooks.get(endpoint.endpointId)).data?.data.endpointId).toBe(endpoint.endpointId);
    expectStatus(await typed.webhooks.remove(endpoint.endpointId), 200);
    const gone = await typed.webhooks.get(endpoint.endpointId);
    expectStatus(gone, 404);
    expect(gone.error?.message).toEqual(expect.any(String));
    await receiver.stop();
  });
});
