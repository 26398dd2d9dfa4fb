import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createPartnerClient, TokenRequestError, type PartnerClientOptions } from '../../clients/typescript/src';
import { AccessToken } from '../../src/modules/auth/entities/access-token';
import { Credential } from '../../src/modules/auth/entities/credential';
import type { RunningServer } from '../../src/server';
import { ROUTES } from '../support/catalogue-fixtures';
import { expectContract } from '../support/contract';
import { at } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { startTestServer } from '../support/test-server';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { departure } from '../support/order-fixtures';
import { revokedAndHeard } from '../support/token-checks';
import { expectStatus } from '../support/expect-status';

const TOKEN = '/api/external/v1/auth/token';
const noWait = async () => undefined;

/** Counts the calls the client makes, per path, on top of the real fetch. */
function countingFetch() {
  const calls: string[] = [];
  const wrapped = (async (input: Request, init?: RequestInit) => {
    calls.push(`${input.method} ${new URL(input.url).pathname}`);
    return fetch(input, init);
  }) as typeof fetch;
  return { calls, fetch: wrapped };
}

describe('typed client against the live server', () => {
  let server: RunningServer;
  let partner: TestPartner;

  beforeAll(async () => {
    server = await startTestServer();
    partner = await newPartner(server, new ApiClient(server.url));
  });
  afterAll(() => server.stop());

  const clientFor = (extra: Partial<PartnerClientOptions> = {}) =>
    createPartnerClient({
      baseUrl: server.url,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
      sleep: noWait,
      ...extra,
    });

  it('takes one token for concurrent calls and lists routes and packages with typed responses', async () => {
    const counter = countingFetch();
    const { api } = clientFor({ fetch: counter.fetch });
    const [routes, ctgs] = await Promise.all([
      api.GET('/api/external/v1/reference/routes', { params: { query: { search: 'everest', size: 5 } } }),
      api.GET('/api/external/v1/reference/ctgs', { params: { query: { sortBy: 'displayOrder' } } }),
    ]);
    await expectContract('listRoutes', routes.response.status, routes.data);
    await expectContract('listCtgs', ctgs.response.status, ctgs.data);
    expect(routes.data?.data.content.map((route) => route.routeId)).toContain(ROUTES.everestBaseCamp);
    expect(ctgs.data?.data.content.length).toBeGreaterThan(0);
    expect(counter.calls.filter((call) => call === `POST ${TOKEN}`)).toHaveLength(1);
  });

  it('prices a trip (quote) and reports a field error as data, not as a message to parse', async () => {
    const { api } = clientFor();
    const quote = await api.POST('/api/external/v1/reference/quote', {
      body: {
        nationality: 'German',
        ages: [34],
        startDate: '2027-03-10',
        duration: 16,
        routeId: ROUTES.everestBaseCamp,
      },
    });
    await expectContract('createQuote', 200, quote.data);
    expect(quote.data?.data.routeId).toBe(ROUTES.everestBaseCamp);

    const invalid = await api.POST('/api/external/v1/reference/quote', {
      body: { nationality: 'German', ages: [34, 35], startDate: '2027-03-10', duration: 16, maxAltitude: 5000 },
    });
    expectStatus(invalid, 400);
    await expectContract('createQuote', 400, invalid.error);
    expect(
      invalid.error && 'details' in invalid.error ? Object.keys(invalid.error.details?.fieldErrors ?? {}) : [],
    ).toContain('ages');
  });

  it('renews the token slightly before it expires', async () => {
    let now = Date.now();
    const counter = countingFetch();
    const { api } = clientFor({ fetch: counter.fetch, now: () => now, refreshBeforeSeconds: 60 });
    await api.GET('/api/external/v1/reference/routes');
    now += (3600 - 61) * 1000;
    await api.GET('/api/external/v1/reference/routes');
    expect(counter.calls.filter((call) => call === `POST ${TOKEN}`)).toHaveLength(1);
    now += 2000;
    const later = await api.GET('/api/external/v1/reference/routes');
    expectStatus(later, 200);
    expect(counter.calls.filter((call) => call === `POST ${TOKEN}`)).toHaveLength(2);
  });

  it('on a 401 takes a new token and retries once', async () => {
    const counter = countingFetch();
    const { api } = clientFor({ fetch: counter.fetch });
    await api.GET('/api/external/v1/reference/routes');
    // The operator revokes every token of the credential; the credential itself stays valid.
    await revokedAndHeard(server, () =>
      server.orm.em
        .fork()
        .nativeUpdate(AccessToken, { credential: { clientId: partner.clientId } }, { revokedAt: new Date() }),
    );
    const response = await api.GET('/api/external/v1/reference/routes');
    expectStatus(response, 200);
    await expectContract('listRoutes', 200, response.data);
    expect(counter.calls).toEqual([
      `POST ${TOKEN}`,
      'GET /api/external/v1/reference/routes',
      'GET /api/external/v1/reference/routes',
      `POST ${TOKEN}`,
      'GET /api/external/v1/reference/routes',
    ]);
  });

  it('stops after the second 401: the credential itself is at fault', async () => {
    const revoked = await newPartner(server, new ApiClient(server.url));
    const counter = countingFetch();
    const { api } = createPartnerClient({
      baseUrl: server.url,
      clientId: revoked.clientId,
      clientSecret: revoked.clientSecret,
      fetch: counter.fetch,
      sleep: noWait,
    });
    await api.GET('/api/external/v1/reference/routes');
    await revokedAndHeard(server, () =>
      server.orm.em.fork().nativeUpdate(Credential, { clientId: revoked.clientId }, { revokedAt: new Date() }),
    );
    const failure = await api.GET('/api/external/v1/reference/routes').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TokenRequestError);
    expectStatus(failure as TokenRequestError, 401);
    await expectContract('issueToken', 401, (failure as TokenRequestError).body);
    expect(counter.calls.filter((call) => call === `POST ${TOKEN}`)).toHaveLength(2);
  });

  it('saves the certificate of a paid order to a file, and reports an unpaid order as a 400 without writing anything', async () => {
    const apiClient = new ApiClient(server.url);
    // A partner of its own: the tests above revoke tokens of the shared one.
    const owner = await newPartner(server, apiClient);
    const ownerClient = createPartnerClient({
      baseUrl: server.url,
      clientId: owner.clientId,
      clientSecret: owner.clientSecret,
      sleep: noWait,
    });
    const order = await placeOrder(server, apiClient, owner);
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'certificate-'));
    const filePath = path.join(directory, `${order.orderRef}.pdf`);

    const unpaid = await ownerClient.saveCertificate(order.orderRef, filePath);
    expect(unpaid.saved).toBe(false);
    expectStatus(unpaid, 400);
    if (!unpaid.saved) await expectContract('getOrderCertificate', 400, unpaid.error);
    expect(fs.readdirSync(directory)).toEqual([]);

    const started = await pay(apiClient, owner, order.orderRef, { gateway: 'card_gateway' });
    const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
    await deliverCallback(apiClient, checkout.callbackUrl as URL);
    const saved = await ownerClient.saveCertificate(order.orderRef, filePath);

    expect(saved).toMatchObject({ saved: true, filePath });
    const pdf = fs.readFileSync(filePath);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(saved.saved && saved.bytes).toBe(pdf.length);
    expect(fs.readdirSync(directory)).toEqual([`${order.orderRef}.pdf`]);
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it("moves a trek's date, and resends the change after a lost answer without moving it twice", async () => {
    const apiClient = new ApiClient(server.url);
    const owner = await newPartner(server, apiClient);
    const order = await placeOrder(server, apiClient, owner);
    const later = addDays(departure, 5);
    let lost = 0;
    // The first PATCH reaches the server, its answer is lost on the way back.
    const losingFetch = (async (input: Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (input.method === 'PATCH' && lost++ === 0) throw new TypeError('fetch failed: the connection dropped');
      return response;
    }) as typeof fetch;
    const ownerClient = createPartnerClient({
      baseUrl: server.url,
      clientId: owner.clientId,
      clientSecret: owner.clientSecret,
      sleep: noWait,
      fetch: losingFetch,
    });

    const { data, error, response } = await ownerClient.changeDepartureDate(order.orderRef, later);

    expect(error).toBeUndefined();
    await expectContract('updateOrder', response.status, data);
    expect(data?.data).toMatchObject({ orderRef: order.orderRef, departureDate: later, coverageStartDate: later });
    expect(lost).toBe(2);
    const refused = await ownerClient.changeDepartureDate(order.orderRef, addDays(kathmanduToday(), -1));
    expectStatus(refused, 400);
    const refusal = refused.error && 'details' in refused.error ? refused.error.details?.fieldErrors : undefined;
    expect(refusal?.departureDate).toMatch(/before today/);
  });

  it('previews and cancels an order, and a retried cancel under its key answers the same refund', async () => {
    const apiClient = new ApiClient(server.url);
    const owner = await newPartner(server, apiClient);
    const ownerClient = createPartnerClient({
      baseUrl: server.url,
      clientId: owner.clientId,
      clientSecret: owner.clientSecret,
      sleep: noWait,
    });
    const order = await placeOrder(server, apiClient, owner);
    const started = await pay(apiClient, owner, order.orderRef, { gateway: 'card_gateway' });
    await deliverCallback(
      apiClient,
      (await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD)).callbackUrl as URL,
    );

    const preview = await ownerClient.previewCancellation(order.orderRef);
    expect(preview.data?.data).toMatchObject({
      rule: 'FREE_LOOK',
      refundAmount: order.totalAmount,
      cancellationFee: 0,
    });
    await expectContract('previewOrderCancellation', 200, preview.data);
    const idempotencyKey = 'c3d1e2f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    const cancelled = await ownerClient.cancel(order.orderRef, { reason: 'TRIP_CANCELLED' }, { idempotencyKey });
    expect(cancelled.data?.data).toMatchObject({ orderStatus: 'CANCELLED', refund: { amount: order.totalAmount } });
    const again = await ownerClient.cancel(order.orderRef, { reason: 'TRIP_CANCELLED' }, { idempotencyKey });
    expect(again.data?.data.refund?.refundRef).toBe(cancelled.data?.data.refund?.refundRef);
  });
});

/** A stand-in for the service that answers from a script, to produce 500s, 429s and dropped connections. */
async function fakeUpstream(answer: (req: http.IncomingMessage, res: http.ServerResponse, hit: number) => void) {
  const seen: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders }> = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === TOKEN) {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            success: true,
            message: 'Token issued',
            data: { accessToken: 'fake-token', tokenType: 'Bearer', expiresIn: 3600 },
            timestamp: new Date().toISOString(),
          }),
        );
        return;
      }
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
      answer(req, res, seen.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const internalError = {
  status: 500,
  error: 'Internal Server Error',
  message: 'Internal server error',
  path: '/x',
  timestamp: '2026-09-20T08:00:00Z',
};
const payInit = {
  success: true,
  message: 'Payment initiated',
  data: { paymentUrl: 'https://pay.example/checkout/1', gateway: 'card_gateway' },
  timestamp: '2026-09-20T08:00:00Z',
};

describe('typed client retry rules against a scripted upstream', () => {
  const credential = { clientId: 'demo', clientSecret: 'secret' };

  it('backs off exponentially with a cap on 500 and gives up after maxAttempts', async () => {
    const upstream = await fakeUpstream((_req, res) => json(res, 500, internalError));
    const waits: number[] = [];
    const { api } = createPartnerClient({
      baseUrl: upstream.url,
      ...credential,
      retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 300 },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    const result = await api.GET('/api/external/v1/reference/routes');
    await upstream.close();
    expectStatus(result, 500);
    expect(upstream.seen).toHaveLength(5);
    expect(waits).toHaveLength(4);
    const ceilings = [100, 200, 300, 300];
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(at(ceilings, i, 'the ceilings') / 2);
      expect(wait).toBeLessThanOrEqual(at(ceilings, i, 'the ceilings'));
    });
  });

  it('recovers when the upstream answers after a few 500s', async () => {
    const upstream = await fakeUpstream((_req, res, hit) =>
      hit < 3
        ? json(res, 500, internalError)
        : json(res, 200, {
            success: true,
            message: 'OK',
            data: { content: [], pagination: { page: 0, size: 20, totalItems: 0, totalPages: 0, hasNext: false } },
            timestamp: '2026-09-20T08:00:00Z',
          }),
    );
    const { api } = createPartnerClient({ baseUrl: upstream.url, ...credential, sleep: noWait });
    const result = await api.GET('/api/external/v1/reference/routes');
    await upstream.close();
    expectStatus(result, 200);
    expect(upstream.seen).toHaveLength(3);
  });

  it('waits for Retry-After on a 429', async () => {
    const upstream = await fakeUpstream((_req, res, hit) =>
      hit === 1
        ? json(res, 429, { ...internalError, status: 429, error: 'Too Many Requests' }, { 'retry-after': '2' })
        : json(res, 200, payInit),
    );
    const waits: number[] = [];
    const client = createPartnerClient({
      baseUrl: upstream.url,
      ...credential,
      sleep: async (ms) => void waits.push(ms),
    });
    const result = await client.pay('ORD-2026-000142', {
      gateway: 'card_gateway',
      returnUrl: 'https://partner.example/return',
    });
    await upstream.close();
    expectStatus(result, 200);
    expect(waits).toEqual([2000]);
  });

  it('sends the same Idempotency-Key on every retry of one pay, and a new one for the next pay', async () => {
    const upstream = await fakeUpstream((req, res, hit) => {
      if (hit === 1) return json(res, 500, internalError);
      if (hit === 2) return req.socket.destroy(); // a network failure mid-request
      json(res, 200, payInit);
    });
    const client = createPartnerClient({ baseUrl: upstream.url, ...credential, sleep: noWait });
    const first = await client.pay('ORD-2026-000142', {
      gateway: 'card_gateway',
      returnUrl: 'https://partner.example/return',
    });
    const second = await client.pay('ORD-2026-000142', {
      gateway: 'card_gateway',
      returnUrl: 'https://partner.example/return',
    });
    await upstream.close();
    expect(first.data?.data.paymentUrl).toBe('https://pay.example/checkout/1');
    expectStatus(second, 200);
    const keys = upstream.seen.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('reuses a stored Idempotency-Key the caller passes, to resume after a restart', async () => {
    const upstream = await fakeUpstream((_req, res) => json(res, 200, payInit));
    const client = createPartnerClient({ baseUrl: upstream.url, ...credential, sleep: noWait });
    await client.pay(
      'ORD-2026-000142',
      { gateway: 'wallet_gateway' },
      { idempotencyKey: 'b9a3f0c2-5d41-4e8a-9f6b-2c7d8e1a3b40' },
    );
    await upstream.close();
    expect(at(upstream.seen, 0, 'the requests upstream').headers['idempotency-key']).toBe(
      'b9a3f0c2-5d41-4e8a-9f6b-2c7d8e1a3b40',
    );
  });

  it('sends one Idempotency-Key on every retry of one webhook registration, and a new one for the next', async () => {
    const created = {
      success: true,
      message: 'Webhook endpoint registered',
      data: { endpointId: '5b2c8e1a-4d7f-4a3b-9c6e-0f1a2b3c4d5e', secret: 'whsec_c2VjcmV0' },
      timestamp: '2026-09-20T08:00:00Z',
    };
    const upstream = await fakeUpstream((req, res, hit) => {
      if (hit === 1) return json(res, 503, { ...internalError, status: 503, error: 'Service Unavailable' });
      if (hit === 2) return req.socket.destroy(); // a network failure mid-request: resent only because it is keyed
      json(res, 201, created);
    });
    const client = createPartnerClient({ baseUrl: upstream.url, ...credential, sleep: noWait });
    const body = { url: 'https://hooks.partner.example/pbs', events: ['order.paid' as const] };
    const first = await client.webhooks.create(body);
    await client.webhooks.create(body, { idempotencyKey: 'b9a3f0c2-5d41-4e8a-9f6b-2c7d8e1a3b40' });
    await upstream.close();
    expectStatus(first, 201);
    const keys = upstream.seen.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).toBe('b9a3f0c2-5d41-4e8a-9f6b-2c7d8e1a3b40');
  });

  it('never resends POST /orders after a network failure: a blind retry could duplicate the order', async () => {
    const upstream = await fakeUpstream((req) => req.socket.destroy());
    const { api } = createPartnerClient({ baseUrl: upstream.url, ...credential, sleep: noWait });
    const failure = await api
      .POST('/api/external/v1/orders', {
        body: {
          touristId: '0b6f3c1e-2d4a-4e8b-9c7d-1a2b3c4d5e6f',
          ctgId: '4d2e1f0a-9b8c-4a7d-8e6f-5a4b3c2d1e0f',
          routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
          departureDate: '2027-03-10',
        },
      })
      .catch((error: unknown) => error);
    await upstream.close();
    expect(failure).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(upstream.seen).toHaveLength(1);
  });

  it('does not retry a 400, whatever its message says', async () => {
    const upstream = await fakeUpstream((_req, res) =>
      json(res, 400, {
        ...internalError,
        status: 400,
        error: 'Bad Request',
        message: 'Temporary glitch, please retry',
      }),
    );
    const { api } = createPartnerClient({ baseUrl: upstream.url, ...credential, sleep: noWait });
    const result = await api.GET('/api/external/v1/reference/routes');
    await upstream.close();
    expectStatus(result, 400);
    expect(upstream.seen).toHaveLength(1);
  });
});
