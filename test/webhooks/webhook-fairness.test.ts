import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../support/eventually';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * DESIGN "No cover bought after the fact" (its last sentence): delivery workers are shared fairly
 * between companies. Four workers, at most two per company: a company whose endpoint never
 * answers holds two, and another company's delivery goes out while those still hang.
 */
const { server, client } = useTestServer({
  ownDatabase: 'webhook_fairness',
  // Background jobs on: the fairness under test is the webhook delivery workers'.
  backgroundJobs: true,
  env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0', WEBHOOK_CONCURRENCY: '4', WEBHOOK_CONCURRENCY_PER_COMPANY: '2', WEBHOOK_TIMEOUT_MS: '30000' },
});
const api = webhookApi(client);
const receiver = new WebhookReceiver();
/** An endpoint that takes every request and never answers. */
const hanging = http.createServer(() => undefined);

afterAll(async () => {
  await receiver.stop();
  hanging.closeAllConnections();
  await new Promise<void>((resolve) => hanging.close(() => resolve()));
});

async function endpoint(partner: TestPartner, url: string): Promise<string> {
  const created = await api.create(partner, { url, events: ['webhook.test'] });
  expectStatus(created, 201);
  return created.body.data.endpointId;
}

/** Deliveries of the company the queue is running now. */
async function inFlight(companyId: string): Promise<number> {
  const rows = await server.orm.em.getConnection().execute<Array<{ running: string }>>(
    `select count(*) as running from pgboss.job where name = 'webhook-delivery' and group_id = ? and state = 'active'`,
    [companyId],
  );
  return Number(rows[0]?.running ?? 0);
}

describe('webhook delivery workers shared between companies', () => {
  it('when one company\'s endpoint hangs under ten test events, then it holds two workers, no more, and another company\'s delivery goes out meanwhile', async () => {
    const stalled = await newPartner(server, client, { name: 'Stalled Endpoint Treks' });
    const other = await newPartner(server, client, { name: 'Prompt Endpoint Treks' });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const stalledEndpoint = await endpoint(stalled, `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`);
    const otherEndpoint = await endpoint(other, await receiver.start());
    receiver.secret = (await api.rotate(other, otherEndpoint)).body.data.secret;

    // The first two one at a time: pg-boss counts a group's active jobs from the snapshot each fetch
    // sees, so workers woken together by a burst below the cap can each take one (decision record
    // 0076). Once the cap is reached, every fetch sees it.
    for (let i = 1; i <= 2; i++) {
      expectStatus(await api.test(stalled, stalledEndpoint), 202);
      expect(await eventually(() => inFlight(stalled.companyId), (running) => running === i)).toBe(i);
    }
    for (let i = 0; i < 8; i++) expectStatus(await api.test(stalled, stalledEndpoint), 202);
    expect(await eventually(() => inFlight(stalled.companyId), (running) => running === 2)).toBe(2);
    expectStatus(await api.test(other, otherEndpoint), 202);

    await receiver.waitFor(() => receiver.unique('webhook.test').length === 1);
    expect(await inFlight(stalled.companyId)).toBe(2);
    const stalledLog = (await api.deliveries(stalled, { endpointId: stalledEndpoint, size: 20 })).body.data.content;
    expect(stalledLog.every((delivery: { status: string; tries: unknown[] }) => delivery.status === 'PENDING' && delivery.tries.length === 0)).toBe(true);
    // The hung requests fail now rather than hold the server's stop for their timeout.
    hanging.closeAllConnections();
  }, 60_000);
});
