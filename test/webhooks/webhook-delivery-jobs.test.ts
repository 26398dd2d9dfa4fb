import { eventually } from '../support/eventually';
import { newPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * Decision record 0076 (its last point): a delivery has at most one live
 * job. Its own database: a server on a shared one runs the delivery queue too. Retries wait a
 * minute, so a failed first try leaves the delivery PENDING with its job waiting.
 */
const { server, client } = useTestServer({
  ownDatabase: 'webhook_delivery_jobs',
  // Background jobs on: the queue jobs under test are the webhook delivery workers'.
  backgroundJobs: true,
  env: {
    LOG_LEVEL: 'error',
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
    WEBHOOK_RETRY_DELAY_SECONDS: '60',
    WEBHOOK_RETRY_DELAY_MAX_SECONDS: '60',
  },
});
const api = webhookApi(client);
const receiver = new WebhookReceiver();

afterAll(() => receiver.stop());

/** Queue jobs of the delivery that can still send it: created, waiting to retry, or running. */
async function liveJobs(deliveryId: string): Promise<number> {
  const rows = await server.orm.em
    .getConnection()
    .execute<Array<{ live: string }>>(
      `select count(*) as live from pgboss.job where name = 'webhook-delivery' and data->>'deliveryId' = ? and state in ('created', 'retry', 'active')`,
      [deliveryId],
    );
  return Number(rows[0]?.live ?? 0);
}

describe('POST /webhook-deliveries/{deliveryId}/retry', () => {
  it('when a PENDING delivery is retried ten times, then it still has one live job, which tries it again at once', async () => {
    const partner = await newPartner(server, client);
    const url = await receiver.start();
    const created = await api.create(partner, { url, events: ['webhook.test'] });
    receiver.secret = created.body.data.secret;
    receiver.failFirst = 1_000;
    const { deliveryId } = (await api.test(partner, created.body.data.endpointId)).body.data;
    const tried = async () =>
      (await api.deliveries(partner, { endpointId: created.body.data.endpointId })).body.data.content[0]?.tries
        .length ?? 0;
    expect(await eventually(tried, (count) => count === 1, { timeoutMs: 30_000 })).toBe(1);
    expect(await liveJobs(deliveryId)).toBe(1);

    for (let i = 0; i < 10; i++) expectStatus(await api.retry(partner, deliveryId), 202);
    await server.webhooks.relayOnce();

    expect(await liveJobs(deliveryId)).toBe(1);
    // Each retry the relay handed over before the next one came was tried at once, the job it replaced cancelled.
    expect(await eventually(tried, (count) => count >= 2, { timeoutMs: 30_000 })).toBeGreaterThanOrEqual(2);
    expect(await liveJobs(deliveryId)).toBe(1);
  }, 60_000);
});
