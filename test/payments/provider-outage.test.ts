import { randomUUID } from 'node:crypto';
import { at, last } from '../support/elements';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, placeOrder, RETURN_URL, type PlacedOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';

/**
 * Khalti slow (accepts, never answers) and down (drops connections) under 10 concurrent pay
 * requests for 100 orders: every answer is a 503 the service gives on its own (its timeout, the
 * dropped connection), never a wait for Khalti; once Khalti is back the same keys start every
 * payment, without a restart. The latencies are printed for the history (docs/benchmarks-history.md,
 * "Payment provider outage"), not asserted: a loaded machine stretches them.
 */
const TIMEOUT_MS = 1000;
const ORDERS = 100;
const CONCURRENCY = 10;

let partner: TestPartner;
let khalti: KhaltiSimulator;
let orders: PlacedOrder[];
const keys = new Map<string, string>();

beforeAll(async () => {
  khalti = await startKhaltiSimulator();
});
const { server, client } = useTestServer({
  ownDatabase: 'outage',
  env: () => ({
    CARD_GATEWAY_PROVIDER: 'khalti',
    KHALTI_SECRET_KEY: khalti.secretKey,
    KHALTI_BASE_URL: khalti.apiBase,
    PAYMENT_PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
  }),
});
beforeAll(async () => {
  partner = await newPartner(server, client);
  // Placed CONCURRENCY at a time, like the payments below: one after the other took longer than the tests themselves.
  orders = [];
  let placed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (placed < ORDERS) {
        placed += 1;
        orders.push(await placeOrder(server, client, partner));
      }
    }),
  );
  for (const order of orders) keys.set(order.orderRef, randomUUID());
}, 120_000);
afterAll(() => khalti?.stop());

const percentile = (sorted: number[], p: number) =>
  at(sorted, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1), 'the latencies');

/** Pays every order with its own key, CONCURRENCY at a time; the statuses and latencies seen. */
async function payAll(): Promise<{ statuses: number[]; p50: number; p99: number; max: number }> {
  const statuses: number[] = [];
  const latencies: number[] = [];
  const queue = [...orders];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let order = queue.shift(); order; order = queue.shift()) {
        const started = performance.now();
        const response = await pay(
          client,
          partner,
          order.orderRef,
          { gateway: 'card_gateway', returnUrl: RETURN_URL },
          keys.get(order.orderRef),
        );
        latencies.push(performance.now() - started);
        statuses.push(response.status);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms);
  return {
    statuses,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(last(latencies, 'the latencies')),
  };
}

describe('POST /orders/{orderRef}/pay while the provider is out', () => {
  it('when Khalti is slow, then every pay answers 503 while Khalti still holds the call unanswered: the service gave up on its own', async () => {
    khalti.health = 'slow';
    const heldBefore = khalti.unanswered;
    const result = await payAll();
    console.log(`provider slow: ${JSON.stringify({ ...result, statuses: [...new Set(result.statuses)] })}`);
    expect(new Set(result.statuses)).toEqual(new Set([503]));
    // Khalti answered none of the calls it took: each 503 came from the service's own timeout.
    expect(khalti.unanswered - heldBefore).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('when Khalti is down, then every pay answers 503', async () => {
    khalti.health = 'down';
    const result = await payAll();
    console.log(`provider down: ${JSON.stringify({ ...result, statuses: [...new Set(result.statuses)] })}`);
    expect(new Set(result.statuses)).toEqual(new Set([503]));
  }, 120_000);

  it('when Khalti is back, then the same keys start every payment, without a restart', async () => {
    khalti.health = 'up';
    const result = await payAll();
    console.log(`provider back: ${JSON.stringify({ ...result, statuses: [...new Set(result.statuses)] })}`);
    expect(new Set(result.statuses)).toEqual(new Set([200]));
    // One Khalti payment per order: the outage left no half-started duplicates behind.
    expect(new Set([...khalti.payments.values()].map((payment) => payment.purchaseOrderId)).size).toBe(ORDERS);
  }, 120_000);
});
