import { initOrm } from '../../src/database';
import { type Orm } from '../../src/kernel/db/orm';
import { buildServer, forkServer, type ServerProcess } from '../support/built-server';
import { at } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, pay, placeOrder, RETURN_URL, submitCheckout } from '../support/payment-fixtures';
import { setEndpoint } from '../../src/modules/webhooks/endpoints';
import { WebhookReceiver } from '../support/webhook-receiver';
import { expectStatus } from '../support/expect-status';

// Built server processes on one database, as a deployment runs them: deliveries and periodic jobs
// go through the shared queue, so each happens once per cluster, and a process killed mid-delivery
// loses nothing.
let orm: Orm;
const processes: ServerProcess[] = [];

beforeAll(async () => {
  buildServer();
  orm = await initOrm(process.env.TEST_DATABASE_URL ?? '', 4);
});
afterAll(async () => {
  for (const server of processes) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await orm.close(true);
});

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await forkServer('main', { LOG_LEVEL: 'warn', PAYMENT_RECONCILE_INTERVAL_SECONDS: '0', ...env });
  processes.push(server);
  return server;
}

async function subscribed(client: ApiClient, receiver: WebhookReceiver): Promise<TestPartner> {
  const partner = await newPartner({ orm }, client);
  const endpoint = await setEndpoint(orm.em.fork(), partner.companyId, await receiver.start(), {
    allowLocalEndpoints: true,
  });
  receiver.secret = endpoint.secret ?? '';
  return partner;
}

/** Pays an order through `client`'s server; the checkout's redirect goes to the callback of that same server. */
async function payThrough(client: ApiClient, partner: TestPartner, orderRef: string): Promise<void> {
  const started = (await pay(client, partner, orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
  if (!checkout.callbackUrl) throw new Error('checkout did not redirect');
  const response = await fetch(checkout.callbackUrl, { redirect: 'manual' });
  expectStatus(response, 303);
}

describe('webhooks across server processes', () => {
  it('when orders are paid through two processes, then the receiver gets exactly one verified order.paid per paid order (by id), and no delivery fails verification', async () => {
    const [a, b] = [await start(), await start()];
    const clients = [new ApiClient(a.url), new ApiClient(b.url)];
    const receiver = new WebhookReceiver();
    const partner = await subscribed(at(clients, 0, 'the clients'), receiver);
    const orders = [];
    for (let i = 0; i < 10; i++) orders.push(await placeOrder({ orm }, at(clients, i % 2, 'the clients'), partner));
    await Promise.all(orders.map((order, i) => payThrough(at(clients, i % 2, 'the clients'), partner, order.orderRef)));
    await receiver.waitFor(() => receiver.unique('order.paid').length === orders.length, 30_000);
    // A moment more: a duplicate would arrive now if two processes had taken one event.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(
      receiver
        .unique('order.paid')
        .map((event) => event.data.orderRef)
        .sort(),
    ).toEqual(orders.map((order) => order.orderRef).sort());
    expect(receiver.verified).toHaveLength(orders.length);
    expect(receiver.rejected).toBe(0);
    await receiver.stop();
  }, 90_000);

  it('when two processes run a periodic job every 2 s for 12 s, then it runs about once per interval in the cluster, never once per process', async () => {
    await start({ DOCUMENT_PURGE_INTERVAL_SECONDS: '2' });
    await start({ DOCUMENT_PURGE_INTERVAL_SECONDS: '2' });
    // Counted from when both run: a slow start (a loaded machine) must not widen the window.
    const since = new Date();
    // An observation window, not a wait for a condition: what is measured is how often it ran.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const rows = await orm.em.getConnection().execute<{ slots: string; jobs: string; seconds: string }[]>(
      `select count(distinct singleton_on)::text as slots, count(*)::text as jobs, extract(epoch from now() - ?::timestamptz)::text as seconds
         from pgboss.job where name = 'token-purge' and created_on >= ?`,
      [since, since],
    );
    const jobs = Number(at(rows, 0, 'the rows').jobs);
    const intervals = Number(at(rows, 0, 'the rows').seconds) / 2;
    // About one run per 2 s interval of the window (about 6 in 12 s); once per process would be twice that.
    expect(jobs).toBeGreaterThanOrEqual(3);
    expect(jobs).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
    expect(Number(at(rows, 0, 'the rows').slots)).toBe(jobs);
  }, 60_000);

  it('when the process sending a delivery is killed with SIGKILL mid-request, then another process delivers the event after the lease runs out', async () => {
    for (const server of processes.splice(0)) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    const env = { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAY_SECONDS: '1' };
    const first = await start(env);
    const client = new ApiClient(first.url);
    const receiver = new WebhookReceiver();
    const partner = await subscribed(client, receiver);
    let arrived!: () => void;
    const firstRequest = new Promise<void>((resolve) => (arrived = resolve));
    receiver.holdFirst = () => arrived();
    const order = await placeOrder({ orm }, client, partner);
    await payThrough(client, partner, order.orderRef);
    await firstRequest;
    first.child.kill('SIGKILL');
    await first.exited;
    processes.splice(processes.indexOf(first), 1);
    await start(env);
    await receiver.waitFor(() => receiver.unique('order.paid').length === 1, 60_000);
    expect(at(receiver.unique('order.paid'), 0, 'the order.paid events').data.orderRef).toBe(order.orderRef);
    await receiver.stop();
  }, 120_000);
});
