import { expectSchema } from '../support/contract';
import { newPartner } from '../support/partners';
import { pay, placeOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer({ env: { MAX_JSON_BODY_BYTES: '2048' } });

describe('the HTTP skeleton', () => {
  it('answers an unknown path with a shape-2 404', async () => {
    const response = await client.call('GET', '/api/external/v1/nowhere');
    expectStatus(response, 404);
    expectSchema('ApiError', response.body);
    expect(response.body.path).toBe('/api/external/v1/nowhere');
  });

  it('answers malformed JSON with a shape-2 400 MALFORMED_JSON without details, which are for validation failures only', async () => {
    const response = await client.op('issueToken', 'POST', '/api/external/v1/auth/token', undefined, {
      raw: '{"clientId": ',
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(response, 400);
    expectSchema('ApiError', response.body);
    expect(response.body).toMatchObject({ code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' });
    expect(response.body).not.toHaveProperty('details');
  });

  it('rejects a body over the configured limit with the documented shape-2 413', async () => {
    const response = await client.op('issueToken', 'POST', '/api/external/v1/auth/token', {
      clientId: 'x'.repeat(4096),
      clientSecret: 'y',
    });
    expectStatus(response, 413);
    expectSchema('ApiError', response.body);
  });

  it.each([
    ['setSandboxPaymentOutcome', 'POST', '/api/external/v1/sandbox/payments/ORD-2030-000142-1/outcome'],
    ['setSandboxRefundOutcome', 'POST', '/api/external/v1/sandbox/refunds/RFD-2030-000001/outcome'],
    ['setSandboxClock', 'PUT', '/api/external/v1/sandbox/clock'],
    ['sendSandboxEvent', 'POST', '/api/external/v1/sandbox/events'],
  ] as const)(
    'answers the sandbox helper %s with its documented 413 when its body is over the limit',
    async (operationId, method, url) => {
      const partner = await newPartner(server, client);
      const response = await client.op(operationId, method, url, { note: 'x'.repeat(4096) }, { token: partner.token });
      expectStatus(response, 413);
      expectSchema('ApiError', response.body);
    },
  );

  it('wraps success in the envelope with a UTC timestamp', async () => {
    const partner = await newPartner(server, client);
    const response = await client.op('listRoutes', 'GET', '/api/external/v1/reference/routes', undefined, {
      token: partner.token,
    });
    expect(response.body).toMatchObject({ success: true, message: expect.any(String), data: expect.any(Object) });
    expect(response.body.timestamp).toMatch(/Z$/);
  });

  it('gives every response a request id, echoing a sane X-Request-Id', async () => {
    const response = await client.call('GET', '/healthz', undefined, {
      headers: { 'x-request-id': 'partner-trace-42' },
    });
    expect(response.headers.get('x-request-id')).toBe('partner-trace-42');
    const generated = await client.call('GET', '/healthz', undefined, {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health and database readiness outside the versioned prefix', async () => {
    expect((await client.op('getHealth', 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await client.op('getReadiness', 'GET', '/readyz')).body).toEqual({ status: 'ready', database: 'up' });
  });

  it('serves the bundled document', async () => {
    const response = await client.call('GET', '/api/external/v1/openapi.json');
    expectStatus(response, 200);
    expect(response.body.openapi).toBe('3.1.0');
  });
});

// Issue 14: the input guards covered the API routes only; a NUL or invalid percent-encoding in the
// path of a sandbox checkout page or of no route at all answered 500.
async function expectRefusedInShape2(method: string, path: string, body?: string) {
  const headers: Record<string, string> =
    body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' };
  const response = await client.call(method, path, undefined, { raw: body, headers, direct: true });
  expect([400, 404]).toContain(response.status);
  expectSchema('ApiError', response.body);
  expect(response.body.status).toBe(response.status);
  return response;
}

describe('hostile paths outside the API routes', () => {
  it.each([
    ['GET', '/sandbox/card_gateway/checkout/ab%00cd'],
    ['POST', '/sandbox/card_gateway/checkout/ab%00cd'],
    ['GET', '/sandbox/wallet_gateway/checkout/%ff%fe'],
    ['GET', '/%ff%fe'],
    ['GET', '/docs%00'],
    ['POST', '/%c0%ae%c0%ae%c0%af'],
    ['GET', '/nowhere/%00'],
  ])('when %s %s, then the answer is a 400 or 404 in shape 2, never a 500', async (method, path) => {
    await expectRefusedInShape2(method, path, method === 'POST' ? 'action=cancel' : undefined);
  });

  it('when a real checkout page is posted a NUL in its form fields, then nothing fails with a 500', async () => {
    const partner = await newPartner(server, client);
    const order = await placeOrder(server, client, partner);
    const paymentUrl = new URL(
      (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data.paymentUrl,
    );
    const response = await client.call('POST', paymentUrl.pathname + paymentUrl.search, undefined, {
      raw: 'action=pay&cardNumber=4242%004242424242424&expiry=12%2F40&cvv=123&holder=A%00B',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      direct: true,
    });
    expect(response.status).toBeLessThan(500);
  });

  it('when an API path holds invalid percent-encoding, then it is still a 400 in shape 2', async () => {
    const response = await expectRefusedInShape2('GET', '/api/external/v1/orders/%ff%fe');
    expectStatus(response, 400);
  });
});

describe('protocol headers on refusals', () => {
  it("names the Bearer scheme on every 401 (RFC 6750), and the refused token's error when one was sent", async () => {
    const missing = await fetch(`${server.url}/api/external/v1/travellers`);
    expectStatus(missing, 401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="partner-api"');
    const refused = await fetch(`${server.url}/api/external/v1/travellers`, {
      headers: { authorization: 'Bearer not-a-token' },
    });
    expectStatus(refused, 401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="partner-api", error="invalid_token"');
  });

  it('lists the methods a path has on a 405 (RFC 9110)', async () => {
    const response = await fetch(`${server.url}/api/external/v1/orders`, { method: 'PUT' });
    expectStatus(response, 405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    const travellers = await fetch(`${server.url}/api/external/v1/travellers`, { method: 'DELETE' });
    expect(travellers.headers.get('allow')).toBe('GET, POST');
  });
});
