import { randomUUID } from 'node:crypto';
import { RETURN_LOOKUP_TTL_MS } from '../../src/modules/payments/providers/return-lookup-cache';
import { placeOrder, pay, RETURN_URL } from '../support/payment-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { esewaCheckout } from '../support/provider-browser';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * The live providers' browser return (/api/external/payment/response/{gateway}/{paymentRef}) as
 * a public link: what a customer sees when a return is refused, and that hitting the link again
 * and again neither makes us call the provider each time nor goes on for ever.
 */
const RETURNS_PER_ADDRESS = 150;
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let partner: TestPartner;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const { server, client } = useTestServer({
  ownDatabase: 'provider_returns',
  env: () => ({
    ...simulatedProvidersEnv(khalti, esewa),
    RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: String(RETURNS_PER_ADDRESS),
  }),
});
beforeAll(async () => {
  partner = await newPartner(server, client);
});
afterAll(() => Promise.all([khalti?.stop(), esewa?.stop()]));

const startEsewa = async () => {
  const order = await placeOrder(server, client, partner);
  const response = await pay(
    client,
    partner,
    order.orderRef,
    { gateway: 'wallet_gateway', returnUrl: RETURN_URL },
    randomUUID(),
  );
  expectStatus(response, 200);
  return { order, started: response.body.data };
};
const visit = (url: URL, accept = BROWSER_ACCEPT) =>
  client.op('handleProviderReturn', 'GET', url.pathname, undefined, {
    query: Object.fromEntries(url.searchParams.entries()),
    headers: { accept },
    direct: true,
  });
/** The success return with its data's total_amount changed, so its signature no longer matches. */
const tampered = (back: URL) => {
  const data = JSON.parse(Buffer.from(back.searchParams.get('data') ?? '', 'base64').toString('utf8'));
  const url = new URL(back);
  url.searchParams.set('data', Buffer.from(JSON.stringify({ ...data, total_amount: '45.0' })).toString('base64'));
  return url;
};

describe('a refused provider return, as the customer sees it', () => {
  it("when the return is refused, then a browser gets a page saying nothing changed, with a link back to the partner's returnUrl and the paymentRef", async () => {
    const { started } = await startEsewa();
    const refused = tampered(await esewaCheckout(started.paymentUrl, 'pay'));
    const answer = await visit(refused);
    expectStatus(answer, 400);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toContain('<h1>Payment not confirmed</h1>');
    expect(answer.body).toContain('changed nothing');
    expect(answer.body).toContain(`<a href="${RETURN_URL}?paymentRef=${started.paymentRef}">Back to the shop</a>`);
    expect(answer.body).not.toContain('{');
  });

  it('when the return names no payment of ours, then the page says so without a link, every value escaped', async () => {
    const answer = await visit(
      new URL('/api/external/payment/response/wallet_gateway/ORD-0000-000000-0000000000000', 'http://unused'),
    );
    expectStatus(answer, 400);
    expect(answer.body).toContain('Payment not confirmed');
    expect(answer.body).not.toContain('<a ');
  });

  it('when the client asks for JSON, then it gets error shape 2 as before', async () => {
    const { started } = await startEsewa();
    const answer = await visit(tampered(await esewaCheckout(started.paymentUrl, 'pay')), 'application/json');
    expectStatus(answer, 400);
    expect(answer.body).toMatchObject({ status: 400, message: 'Invalid payment callback' });
  });
});

describe('the return link cannot be used to make us call the provider at will', () => {
  it("when the eSewa return is hit 100 times, then eSewa's status API is asked once per attempt per few seconds, not 100 times", async () => {
    const { started } = await startEsewa();
    const back = await esewaCheckout(started.paymentUrl, 'pay');
    const began = Date.now();
    for (let hit = 0; hit < 100; hit += 1) expectStatus(await visit(back), 303);
    const allowed = 1 + Math.ceil((Date.now() - began) / RETURN_LOOKUP_TTL_MS);
    const calls = esewa.statusCalls.get(started.paymentRef) ?? 0;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(calls).toBeLessThanOrEqual(allowed);
  });

  it('when one address goes on hitting returns, then it gets a 429 page with Retry-After and the provider is not asked', async () => {
    const { started } = await startEsewa();
    const back = await esewaCheckout(started.paymentUrl, 'cancel');
    let answer = await visit(back);
    // Up to two windows' worth: a window that ends during the loop starts the count again.
    for (let hit = 0; hit <= 2 * RETURNS_PER_ADDRESS && answer.status !== 429; hit += 1) answer = await visit(back);
    expectStatus(answer, 429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answer.body).toContain('Too many requests');
    const calls = esewa.statusCalls.get(started.paymentRef) ?? 0;
    expectStatus(await visit(back), 429);
    expect(esewa.statusCalls.get(started.paymentRef) ?? 0).toBe(calls);
  });
});
