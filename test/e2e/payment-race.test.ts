import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import type { RunningServer } from '../../src/server';
import { forkServer } from '../support/built-server';
import { at } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, ledgerOf, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { startTestServer } from '../support/test-server';

// Two built server processes (dist/src/main.js, `npm run test:race` builds first) on one test
// database and one DATA_DIR (so they share the sandbox gateway secrets), racing each other.
const ROUNDS = 5;
const REQUESTS = 50;

let fixtures: RunningServer;
let partner: TestPartner;
let processes: ChildProcess[] = [];
let clients: ApiClient[] = [];
let dataDir: string;

/** The client of one of the two processes, taking turns by `i`. */
const clientOf = (i: number) => at(clients, i % 2, 'the clients');

const forkRacer = () =>
  forkServer('main', {
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
    DB_POOL_MAX: '10',
  });

beforeAll(async () => {
  if (!fs.existsSync(path.resolve(__dirname, '../../dist/src/main.js')))
    throw new Error('run `npm run build` first (npm run test:race does)');
  // The in-process server migrates the database first and gives the test its ORM for fixtures.
  fixtures = await startTestServer({ PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-race-'));
  const servers = await Promise.all([forkRacer(), forkRacer()]);
  processes = servers.map((s) => s.child);
  clients = servers.map((s) => new ApiClient(s.url));
  partner = await newPartner(fixtures, clientOf(0));
});
afterAll(async () => {
  await Promise.all(
    processes.map(
      (child) =>
        new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await fixtures?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('pay across two server processes', () => {
  it(`when ${REQUESTS} requests with one Idempotency-Key race over two processes, ${ROUNDS} times, then each round creates exactly one attempt (0 double charges)`, async () => {
    const summary = { requests: 0, ok: 0, attempts: 0, distinctRefsPerRound: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = await placeOrder(fixtures, clientOf(0), partner);
      const key = randomUUID();
      const responses = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) =>
          pay(clientOf(i), partner, order.orderRef, { gateway: 'card_gateway' }, key),
        ),
      );
      summary.requests += responses.length;
      summary.ok += responses.filter((r) => r.status === 200).length;
      summary.distinctRefsPerRound.push(new Set(responses.map((r) => r.body.data.paymentRef)).size);
      summary.attempts += await fixtures.orm.em.fork().count(PaymentAttempt, { orders: { order: order.orderId } });
    }
    console.info(`race: ${JSON.stringify(summary)}`);
    expect(summary).toEqual({
      requests: ROUNDS * REQUESTS,
      ok: ROUNDS * REQUESTS,
      attempts: ROUNDS,
      distinctRefsPerRound: Array(ROUNDS).fill(1),
    });
  });

  it('when new keys race for one order over two processes, then exactly one attempt stays open, the rest are superseded, and a request that kept losing is told to retry (409)', async () => {
    const order = await placeOrder(fixtures, clientOf(0), partner);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pay(clientOf(i), partner, order.orderRef, { gateway: 'wallet_gateway' })),
    );
    const started = responses.filter((r) => r.status === 200);
    console.info(`new-key race: 200=${started.length} 409=${responses.length - started.length}`);
    expect(responses.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
    const ledger = await ledgerOf(fixtures, order.orderId);
    expect(ledger.attempts).toHaveLength(started.length);
    expect(ledger.attempts.filter((a) => a.status === 'INITIATED')).toHaveLength(1);
    expect(new Set(ledger.attempts.map((a) => a.paymentRef))).toEqual(
      new Set(started.map((r) => r.body.data.paymentRef)),
    );
  });

  it('when the same success callback reaches both processes at once, 10 times each, then the order is PAID once (0 double charges)', async () => {
    const order = await placeOrder(fixtures, clientOf(0), partner);
    const started = (await pay(clientOf(0), partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
    const deliveries = await Promise.all(
      Array.from({ length: 20 }, (_, i) => deliverCallback(clientOf(i), checkout.callbackUrl!)),
    );
    const accepted = deliveries.filter((r) => r.status === 200).length;
    const ledger = await ledgerOf(fixtures, order.orderId);
    console.info(
      `callback race: accepted=${accepted} replaysRefused=${deliveries.length - accepted} successes=${ledger.successes}`,
    );
    expect(accepted).toBe(1);
    expect(ledger.orderStatus).toBe('PAID');
    expect(ledger.successes).toBe(1);
  });
});
