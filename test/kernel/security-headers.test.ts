import { createHash } from 'node:crypto';
import { captured } from '../support/elements';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, paymentStatus, placeOrder } from '../support/payment-fixtures';
import { serverBehind } from '../support/prism';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client);
});

/** A Content-Security-Policy header as directive -> sources. */
function policyOf(headers: Headers): Record<string, string[]> {
  const header = headers.get('content-security-policy');
  if (!header) throw new Error('no Content-Security-Policy header');
  return Object.fromEntries(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** What every answer carries, JSON or HTML: no MIME sniffing, no Referer, never framed. */
function expectBaseHeaders(headers: Headers): void {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-powered-by')).toBeNull();
}

/** The policy of the pages we render ourselves: inline styles only, no script at all, not framable. */
function expectStrictPolicy(headers: Headers): void {
  expect(policyOf(headers)).toEqual({
    'default-src': ["'none'"],
    'style-src': ["'unsafe-inline'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
  });
}

describe('security headers', () => {
  it('the docs page allows exactly its own inline scripts (by hash), cannot be framed and loads nothing from elsewhere', async () => {
    const response = await fetch(`${serverBehind(server.url)}/docs`);
    const html = await response.text();
    expectStatus(response, 200);
    expectBaseHeaders(response.headers);
    const policy = policyOf(response.headers);
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (m) => `'sha256-${createHash('sha256').update(captured(m, 1)).digest('base64')}'`,
    );
    expect(inlineScripts.length).toBeGreaterThan(0);
    expect(policy['script-src']?.sort()).toEqual([...new Set(inlineScripts)].sort());
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    // No source on another origin anywhere in the policy.
    expect(
      Object.values(policy)
        .flat()
        .filter((source) => /^(https?:|\*)/.test(source)),
    ).toEqual([]);
  });

  it('the hosted checkout page, its submit and the payment result page run no script and cannot be framed', async () => {
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
    const page = await fetch(started.paymentUrl);
    expectStatus(page, 200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expectBaseHeaders(page.headers);
    expectStrictPolicy(page.headers);

    const submitted = await fetch(started.paymentUrl, {
      method: 'POST',
      body: new URLSearchParams(APPROVE_CARD),
      redirect: 'manual',
    });
    expectStatus(submitted, 303);
    expectBaseHeaders(submitted.headers);

    const result = await deliverCallback(client, new URL(submitted.headers.get('location')!));
    expectStatus(result, 200);
    expect(result.headers.get('content-type')).toMatch(/^text\/html/);
    expectBaseHeaders(result.headers);
    expectStrictPolicy(result.headers);
  });

  it('JSON answers, successes and errors alike, are marked nosniff', async () => {
    const answers = [
      await client.op('listCtgs', 'GET', '/api/external/v1/reference/ctgs', undefined, { token: partner.token }),
      await client.op('listCtgs', 'GET', '/api/external/v1/reference/ctgs'),
      await client.op(
        'createQuote',
        'POST',
        '/api/external/v1/reference/quote',
        { ages: 'many' },
        { token: partner.token },
      ),
      await client.call('GET', '/api/external/v1/no-such-thing'),
      await client.call('GET', '/api/external/v1/openapi.json'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 400, 404, 200]);
    for (const answer of answers) {
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expectBaseHeaders(answer.headers);
      expectStrictPolicy(answer.headers);
    }
  });

  it('no cache may keep a partner answer (tokens, personal data, errors); the published document stays cacheable', async () => {
    const order = await placeOrder(server, client, partner);
    const answers = [
      await client.op('issueToken', 'POST', '/api/external/v1/auth/token', {
        clientId: partner.clientId,
        clientSecret: partner.clientSecret,
      }),
      await client.op('listTravellers', 'GET', '/api/external/v1/travellers', undefined, { token: partner.token }),
      await client.op('getOrder', 'GET', `/api/external/v1/orders/${order.orderRef}`, undefined, {
        token: partner.token,
      }),
      await paymentStatus(client, partner, order.orderRef),
      await client.op('getOrder', 'GET', `/api/external/v1/orders/${order.orderRef}`),
      await client.op(
        'createQuote',
        'POST',
        '/api/external/v1/reference/quote',
        { ages: 'many' },
        { token: partner.token },
      ),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 401, 400]);
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store');
    const document = await client.call('GET', '/api/external/v1/openapi.json');
    expect(document.headers.get('cache-control')).toBeNull();
  });
});
