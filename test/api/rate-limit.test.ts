import type { RunningServer } from '../../src/server';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { startTestServer } from '../support/test-server';

const TOKEN = '/api/external/v1/auth/token';

/** Rate-limit counters live in PostgreSQL; each test starts from empty ones. */
async function clearCounters(server: RunningServer): Promise<void> {
  await server.orm.em.fork().getConnection().execute('delete from rate_limit_bucket');
}

const expectRateLimited = (response: { status: number; headers: Headers; body: any }, path: string) => {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600); // the tests' window
  expect(response.body).toMatchObject({ status: 429, error: 'Too Many Requests', path });
  expect(response.body).not.toHaveProperty('success');
};

describe('rate limiting POST /auth/token', () => {
  let first: RunningServer;
  let second: RunningServer;
  let partner: TestPartner;

  beforeAll(async () => {
    // An hour's window: a test's few calls must not straddle a window boundary (slow under Prism).
    const limits = { RATE_LIMIT_TOKEN_PER_CLIENT: '3', RATE_LIMIT_TOKEN_PER_ADDRESS: '8', RATE_LIMIT_WINDOW_SECONDS: '3600' };
    first = await startTestServer(limits);
    second = await startTestServer(limits);
    // The counters are shared with every earlier test file of the run: the address bucket may
    // already be over this test's limit of 8 in the current window.
    await clearCounters(first);
    partner = await newPartner(first, new ApiClient(first.url));
  }, 90_000);
  afterAll(async () => {
    await clearCounters(first);
    await Promise.all([first.stop(), second.stop()]);
  });
  beforeEach(() => clearCounters(first));

  const takeToken = (server: RunningServer, clientId = partner.clientId, clientSecret = partner.clientSecret) =>
    new ApiClient(server.url).op('issueToken', 'POST', TOKEN, { clientId, clientSecret });

  it('answers the request over the per-client limit with a shape-2 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i += 1) expect((await takeToken(first)).status).toBe(200);
    expectRateLimited(await takeToken(first), TOKEN);
  });

  it('holds one limit across server processes, because the counter is in PostgreSQL', async () => {
    expect((await takeToken(first)).status).toBe(200);
    expect((await takeToken(second)).status).toBe(200);
    expect((await takeToken(first)).status).toBe(200);
    expectRateLimited(await takeToken(second), TOKEN);
  });

  it('counts failed attempts too, so a secret cannot be guessed faster than the limit', async () => {
    for (let i = 0; i < 3; i += 1) expect((await takeToken(first, partner.clientId, 'guess')).status).toBe(401);
    expectRateLimited(await takeToken(first, partner.clientId, 'guess'), TOKEN);
    expectRateLimited(await takeToken(first), TOKEN);
  });

  it('limits one client address across many clientIds', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1) statuses.push((await takeToken(first, `sprayed-${i}`, 'guess')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
  });

  it('does not limit other clients when one is limited', async () => {
    const other = await newPartner(first, new ApiClient(first.url));
    await clearCounters(first);
    for (let i = 0; i < 4; i += 1) await takeToken(first);
    expect((await takeToken(first, other.clientId, other.clientSecret)).status).toBe(200);
  });

  it('starts counting afresh in the next window', async () => {
    await first.orm.em.fork().getConnection().execute(`insert into rate_limit_bucket values (?, now() - interval '1 hour', 99)`, [`token:client:${partner.clientId}`]);
    expect((await takeToken(first)).status).toBe(200);
  });
});

describe('rate limiting the promo operations', () => {
  let server: RunningServer;
  let client: ApiClient;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_PROMO_PER_COMPANY: '2', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    client = new ApiClient(server.url);
  });
  afterAll(async () => {
    await clearCounters(server);
    await server.stop();
  });

  const promoCalls = [
    ['previewOrderPromo', 'POST', '/api/external/v1/orders/ORD-2026-000001/promo/preview', { promoCode: 'TREK10' }],
    ['applyOrderPromo', 'POST', '/api/external/v1/orders/ORD-2026-000001/promo', { promoCode: 'TREK10' }],
    ['removeOrderPromo', 'DELETE', '/api/external/v1/orders/ORD-2026-000001/promo', undefined],
    ['previewGroupPromo', 'POST', '/api/external/v1/orders/groups/GRP-2026-000001/promo/preview', { promoCode: 'TREK10' }],
    ['applyGroupPromo', 'POST', '/api/external/v1/orders/groups/GRP-2026-000001/promo', { promoCode: 'TREK10' }],
    ['removeGroupPromo', 'DELETE', '/api/external/v1/orders/groups/GRP-2026-000001/promo', undefined],
  ] as const;

  it.each(promoCalls)('%s is limited per company with a shape-2 429', async (operationId, method, path, body) => {
    const partner = await newPartner(server, client);
    // The first two reach the operation (whatever it answers); the third is over the limit.
    for (let i = 0; i < 2; i += 1) expect((await client.call(method, path, body, { token: partner.token })).status).not.toBe(429);
    const limited = await client.op(operationId, method, path, body, { token: partner.token });
    expectRateLimited(limited, path);
  });

  it('counts each company separately', async () => {
    const [busy, quiet] = [await newPartner(server, client), await newPartner(server, client)];
    const path = '/api/external/v1/orders/ORD-2026-000001/promo/preview';
    for (let i = 0; i < 3; i += 1) await client.call('POST', path, { promoCode: 'X' }, { token: busy.token });
    expect((await client.call('POST', path, { promoCode: 'X' }, { token: quiet.token })).status).not.toBe(429);
  });

  it('leaves operations without a limit alone', async () => {
    const partner = await newPartner(server, client);
    for (let i = 0; i < 5; i += 1) {
      expect((await client.op('listCtgs', 'GET', '/api/external/v1/reference/ctgs', undefined, { token: partner.token })).status).toBe(200);
    }
  });
});
