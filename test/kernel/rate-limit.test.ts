import type { RunningServer } from '../../src/server';
import { ApiClient, type WireJson } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { createOwnDatabase, type OwnDatabase } from '../support/own-database';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const TOKEN = '/api/external/v1/auth/token';

/** Rate-limit counters live in PostgreSQL; each test starts from empty ones. */
async function clearCounters(server: RunningServer): Promise<void> {
  await server.orm.em.fork().getConnection().execute('delete from rate_limit_bucket');
}

const expectRateLimited = (response: { status: number; headers: Headers; body: WireJson }, path: string) => {
  expectStatus(response, 429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(3600); // the tests' window
  expect(response.body).toMatchObject({ status: 429, error: 'Too Many Requests', path });
  expect(response.body).not.toHaveProperty('success');
};

/**
 * Every server of this file runs on a database of its own. On the run's shared one the counters
 * are not this file's alone: a server with the default 60 s window sweeps buckets older than two
 * of its windows, which deletes this file's hour-long ones mid-test, and this file's clearing
 * would delete the buckets another file's limits are counting.
 */
let database: OwnDatabase;
beforeAll(async () => {
  database = await createOwnDatabase('rate_limits');
});
afterAll(() => database?.drop());
/** A server's env on this file's database, read when the server starts. */
const on = (env: Record<string, string>) => () => ({ ...env, DATABASE_URL: database.url });

describe('rate limiting POST /auth/token', () => {
  // An hour's window: a test's few calls must not straddle a window boundary (slow under Prism).
  // Behind a trusted proxy on loopback, X-Forwarded-For names the client address.
  const limits = {
    RATE_LIMIT_TOKEN_PER_CLIENT: '3',
    RATE_LIMIT_TOKEN_PER_ADDRESS: '8',
    RATE_LIMIT_TOKEN_PER_CLIENT_ADDRESS: '3',
    RATE_LIMIT_WINDOW_SECONDS: '3600',
    TRUST_PROXY: 'loopback',
  };
  // after* hooks run in the order declared: the counters are cleared while the server still runs.
  afterAll(() => clearCounters(first));
  const { server: first, client: firstClient } = useTestServer({ env: on(limits) });
  const { server: second } = useTestServer({ env: on(limits) });
  let partner: TestPartner;

  beforeAll(async () => {
    // The address bucket may already be over this test's limit of 8 from the file's other servers.
    await clearCounters(first);
    partner = await newPartner(first, firstClient);
  }, 90_000);
  beforeEach(() => clearCounters(first));

  const PARTNER_ADDRESS = '198.51.100.10';
  const STRANGER_ADDRESS = '203.0.113.66';
  const takeToken = (
    server: RunningServer,
    clientId = partner.clientId,
    clientSecret = partner.clientSecret,
    from = PARTNER_ADDRESS,
  ) =>
    new ApiClient(server.url).op(
      'issueToken',
      'POST',
      TOKEN,
      { clientId, clientSecret },
      { headers: { 'x-forwarded-for': from } },
    );

  it('answers the token over the per-client limit with a shape-2 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i += 1) expectStatus(await takeToken(first), 200);
    expectRateLimited(await takeToken(first), TOKEN);
  });

  it('holds one limit across server processes, because the counter is in PostgreSQL', async () => {
    expectStatus(await takeToken(first), 200);
    expectStatus(await takeToken(second), 200);
    expectStatus(await takeToken(first), 200);
    expectRateLimited(await takeToken(second), TOKEN);
  });

  it("when a stranger guesses a partner's secret, then the stranger's address is locked out and the partner still gets its token", async () => {
    for (let i = 0; i < 3; i += 1)
      expectStatus(await takeToken(first, partner.clientId, 'guess', STRANGER_ADDRESS), 401);
    expectRateLimited(await takeToken(first, partner.clientId, 'guess', STRANGER_ADDRESS), TOKEN);
    // Even the right secret is refused from there: a guess that happened to be right must not show.
    expectRateLimited(await takeToken(first, partner.clientId, partner.clientSecret, STRANGER_ADDRESS), TOKEN);
    expectStatus(await takeToken(first, partner.clientId, partner.clientSecret, PARTNER_ADDRESS), 200);
    expectStatus(await takeToken(second, partner.clientId, partner.clientSecret, PARTNER_ADDRESS), 200);
  });

  it('when a right secret follows wrong ones from the same address, then it takes no failure slot', async () => {
    for (let i = 0; i < 2; i += 1) expectStatus(await takeToken(first, partner.clientId, 'typo'), 401);
    for (let i = 0; i < 3; i += 1) expectStatus(await takeToken(first), 200);
    expectStatus(await takeToken(first, partner.clientId, 'typo'), 401);
  });

  it('when one address sprays many clientIds, then that address is limited and partners elsewhere are not', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 9; i += 1)
      statuses.push((await takeToken(first, `sprayed-${i}`, 'guess', STRANGER_ADDRESS)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    expectStatus(await takeToken(first, partner.clientId, partner.clientSecret, PARTNER_ADDRESS), 200);
  });

  it('does not limit other clients when one is limited', async () => {
    const other = await newPartner(first, firstClient);
    await clearCounters(first);
    for (let i = 0; i < 4; i += 1) await takeToken(first);
    expectStatus(await takeToken(first, other.clientId, other.clientSecret), 200);
  });

  it('starts counting afresh in the next window', async () => {
    await first.orm.em
      .fork()
      .getConnection()
      .execute(`insert into rate_limit_bucket values (?, now() - interval '1 hour', 99)`, [
        `token:client:${partner.clientId}`,
      ]);
    expectStatus(await takeToken(first), 200);
  });
});

describe('POST /auth/token without TRUST_PROXY', () => {
  afterAll(() => clearCounters(server));
  const { server, client } = useTestServer({
    env: on({ RATE_LIMIT_TOKEN_PER_CLIENT_ADDRESS: '2', RATE_LIMIT_WINDOW_SECONDS: '3600' }),
  });
  beforeAll(() => clearCounters(server));

  it('ignores X-Forwarded-For, so a client cannot pick the address its failures count against', async () => {
    const guess = (from: string) =>
      client.op(
        'issueToken',
        'POST',
        TOKEN,
        { clientId: 'demo-everest-trails', clientSecret: 'guess' },
        { headers: { 'x-forwarded-for': from } },
      );
    expectStatus(await guess('192.0.2.1'), 401);
    expectStatus(await guess('192.0.2.2'), 401);
    expectRateLimited(await guess('192.0.2.3'), TOKEN);
  });
});

describe('rate limiting the promo operations', () => {
  afterAll(() => clearCounters(server));
  const { server, client } = useTestServer({
    env: on({ RATE_LIMIT_PROMO_PER_COMPANY: '2', RATE_LIMIT_WINDOW_SECONDS: '3600' }),
  });

  const promoCalls = [
    ['previewOrderPromo', 'POST', '/api/external/v1/orders/ORD-2026-000001/promo/preview', { promoCode: 'TREK10' }],
    ['applyOrderPromo', 'POST', '/api/external/v1/orders/ORD-2026-000001/promo', { promoCode: 'TREK10' }],
    ['removeOrderPromo', 'DELETE', '/api/external/v1/orders/ORD-2026-000001/promo', undefined],
    [
      'previewGroupPromo',
      'POST',
      '/api/external/v1/orders/groups/GRP-2026-000001/promo/preview',
      { promoCode: 'TREK10' },
    ],
    ['applyGroupPromo', 'POST', '/api/external/v1/orders/groups/GRP-2026-000001/promo', { promoCode: 'TREK10' }],
    ['removeGroupPromo', 'DELETE', '/api/external/v1/orders/groups/GRP-2026-000001/promo', undefined],
  ] as const;

  it.each(promoCalls)('%s is limited per company with a shape-2 429', async (operationId, method, path, body) => {
    const partner = await newPartner(server, client);
    // The first two reach the operation (whatever it answers); the third is over the limit.
    for (let i = 0; i < 2; i += 1)
      expect((await client.call(method, path, body, { token: partner.token })).status).not.toBe(429);
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
      expectStatus(
        await client.op('listCtgs', 'GET', '/api/external/v1/reference/ctgs', undefined, { token: partner.token }),
        200,
      );
    }
  });
});
