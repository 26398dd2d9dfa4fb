import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../src/kernel/logging/logger';
import { deliverOnce } from '../../src/modules/webhooks/delivery';
import { WEBHOOK_QUEUE, type DeliveryJob } from '../../src/modules/webhooks/relay';
import { createWebhookSender } from '../../src/modules/webhooks/sender';
import { eventually } from '../support/eventually';
import { newPartner, type TestPartner } from '../support/partners';
import { startTestServer, testConfig, useTestServer } from '../support/test-server';
import type { RunningServer } from '../../src/server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * Decision records 0076 and 0086: delivery
 * workers are shared fairly between companies, across server processes. Two servers on one
 * database, sixteen workers each, at most two deliveries per company in flight: a burst of one
 * company's events to an endpoint that never answers wakes every worker at once, and still no more
 * than two of its requests are ever open; another company's delivery goes out while they hang.
 */
const WORKERS = {
  PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
  WEBHOOK_CONCURRENCY: '16',
  WEBHOOK_CONCURRENCY_PER_COMPANY: '2',
  WEBHOOK_TIMEOUT_MS: '30000',
};
const receiver = new WebhookReceiver();
/** An endpoint that takes every request and never answers, counting the requests open at once. */
const hanging = { open: 0, most: 0, received: 0 };
const hangingServer = http.createServer((request) => {
  hanging.received += 1;
  hanging.open += 1;
  hanging.most = Math.max(hanging.most, hanging.open);
  request.socket.once('close', () => (hanging.open -= 1));
});

// Declared before the servers, so it runs before they stop (jest runs afterAll hooks in order):
// a server stops only once the deliveries in its hands end, and the hanging ones end when their
// connections close.
afterAll(async () => {
  deliveryDeps.sender.close();
  await receiver.stop();
  hangingServer.closeAllConnections();
  await new Promise<void>((resolve) => hangingServer.close(() => resolve()));
});

// The second server runs on the first's database: it stops before the first drops it (jest runs
// afterAll hooks in the order they are declared, beforeAll hooks too).
let second: RunningServer | undefined;
afterAll(() => second?.stop());
// Background jobs on: the fairness under test is the webhook delivery workers'.
const first = useTestServer({ ownDatabase: 'webhook_fairness', env: WORKERS, backgroundJobs: true });
const { server, client } = first;
beforeAll(async () => {
  second = await startTestServer({ ...WORKERS, DATABASE_URL: first.databaseUrl() }, undefined, {
    backgroundJobs: true,
  });
});
const api = webhookApi(client);
const BURST = 40;
const deliveryDeps = {
  webhooks: testConfig(WORKERS).webhooks,
  sender: createWebhookSender({ timeoutMs: 30_000, allowLocal: true }),
  logger: createLogger('silent'),
};

async function endpoint(partner: TestPartner, url: string): Promise<string> {
  const created = await api.create(partner, { url, events: ['webhook.test'] });
  expectStatus(created, 201);
  return created.body.data.endpointId;
}

/** The company's delivery jobs by state, and the most retries any of them counts. */
async function jobsOf(companyId: string): Promise<{ active: number; handedOver: number; mostRetries: number }> {
  const [row] = await server.orm.em
    .getConnection()
    .execute<Array<{ active: number; handed_over: number; most_retries: number | null }>>(
      `select count(*) filter (where state = 'active')::int as active, count(*)::int as handed_over, max(retry_count)::int as most_retries
       from pgboss.job where name = 'webhook-delivery' and group_id = ?`,
      [companyId],
    );
  return { active: row?.active ?? 0, handedOver: row?.handed_over ?? 0, mostRetries: row?.most_retries ?? 0 };
}

/** `count` webhook.test events of a company committed in one transaction, straight into the outbox. */
async function burstOfTestEvents(companyId: string, count: number): Promise<void> {
  const events = Array.from({ length: count }, () => {
    const id = `evt_${randomUUID().replaceAll('-', '')}`;
    return {
      id,
      payload: { id, type: 'webhook.test', timestamp: new Date().toISOString(), data: { message: 'burst' } },
    };
  });
  await server.orm.em
    .getConnection()
    .execute(
      `insert into webhook_event (id, company_id, type, payload, created_at) select e->>'id', ?, 'webhook.test', e->'payload', now() from jsonb_array_elements(?::jsonb) as e`,
      [companyId, JSON.stringify(events)],
    );
}

describe('webhook delivery workers shared between companies', () => {
  it("when a burst of forty test events goes to one company's endpoint that never answers, then no more than two of its requests are ever open, across two server processes, the rest wait untried, and another company's delivery goes out meanwhile", async () => {
    expect(second?.url).not.toBe(server.url);
    const stalled = await newPartner(server, client, { name: 'Stalled Endpoint Treks' });
    const other = await newPartner(server, client, { name: 'Prompt Endpoint Treks' });
    await new Promise<void>((resolve) => hangingServer.listen(0, '127.0.0.1', resolve));
    const stalledEndpoint = await endpoint(
      stalled,
      `http://127.0.0.1:${(hangingServer.address() as AddressInfo).port}/hooks`,
    );
    const otherEndpoint = await endpoint(other, await receiver.start());
    receiver.secret = (await api.rotate(other, otherEndpoint)).body.data.secret;

    // The other company's burst first, delivered at once: it leaves every server's queue
    // connections open, so that the next burst's fetches run side by side, as on a busy server.
    await burstOfTestEvents(other.companyId, BURST);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === BURST);
    // Committed at once, as a group payment's order events are: the relay hands them over together
    // and its NOTIFY wakes every idle worker of both servers.
    await burstOfTestEvents(stalled.companyId, BURST);
    expect(
      (
        await eventually(
          () => jobsOf(stalled.companyId),
          (jobs) => jobs.handedOver === BURST,
        )
      ).handedOver,
    ).toBe(BURST);
    expect(
      await eventually(
        () => hanging.open,
        (open) => open === 2,
      ),
    ).toBe(2);

    expectStatus(await api.test(other, otherEndpoint), 202);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === BURST + 1);

    expect(hanging).toMatchObject({ open: 2, most: 2, received: 2 });
    // Jobs a woken worker took past the cap went back to the queue: two stay active, and none counted a retry.
    expect(
      await eventually(
        () => jobsOf(stalled.companyId),
        (jobs) => jobs.active === 2,
      ),
    ).toEqual({ active: 2, handedOver: BURST, mostRetries: 0 });
    const stalledLog = (await api.deliveries(stalled, { endpointId: stalledEndpoint, size: BURST })).body.data.content;
    expect(stalledLog).toHaveLength(BURST);
    expect(
      stalledLog.every(
        (delivery: { status: string; tries: unknown[] }) =>
          delivery.status === 'PENDING' && delivery.tries.length === 0,
      ),
    ).toBe(true);

    // What a worker does whose fetch saw the company under its cap a moment before the cap was
    // reached (fetches run side by side on a busy machine): it holds one more of the company's jobs.
    const [late] = await server.queue.boss.fetch<DeliveryJob>(WEBHOOK_QUEUE);
    if (late?.data.deliveryId === undefined) throw new Error('no delivery job left to fetch');
    expect(
      await deliverOnce(
        server.orm.em.fork(),
        late.data.deliveryId,
        { jobId: late.id, retryCount: late.retryCount, retryLimit: deliveryDeps.webhooks.retryLimit },
        deliveryDeps,
      ),
    ).toBe('NO_SLOT');
    expect(hanging).toMatchObject({ open: 2, most: 2, received: 2 });
    expect(await jobsOf(stalled.companyId)).toEqual({ active: 2, handedOver: BURST, mostRetries: 0 });
    // The hung requests fail now rather than hold the servers' stop for their timeout.
    hangingServer.closeAllConnections();
  }, 60_000);
});
