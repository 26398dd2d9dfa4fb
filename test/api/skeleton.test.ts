import type { RunningServer } from '../../src/server';
import { expectSchema } from '../support/contract';
import { ApiClient } from '../support/http-client';
import { newPartner } from '../support/partners';
import { startTestServer } from '../support/test-server';

let server: RunningServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ MAX_JSON_BODY_BYTES: '2048' });
  client = new ApiClient(server.url);
});
afterAll(() => server.stop());

describe('the HTTP skeleton', () => {
  it('answers an unknown path with a shape-2 404', async () => {
    const response = await client.call('GET', '/api/external/v1/nowhere');
    expect(response.status).toBe(404);
    expectSchema('ApiError', response.body);
    expect(response.body.path).toBe('/api/external/v1/nowhere');
  });

  it('answers malformed JSON with a shape-2 400', async () => {
    const response = await client.op('issueToken', 'POST', '/api/external/v1/auth/token', undefined, {
      raw: '{"clientId": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
  });

  it('rejects a body over the configured limit with a shape-2 413', async () => {
    const response = await client.call('POST', '/api/external/v1/auth/token', { clientId: 'x'.repeat(4096), clientSecret: 'y' });
    expect(response.status).toBe(413);
    expectSchema('ApiError', response.body);
  });

  it('wraps success in the envelope with a UTC timestamp', async () => {
    const partner = await newPartner(server, client);
    const response = await client.op('listRoutes', 'GET', '/api/external/v1/reference/routes', undefined, { token: partner.token });
    expect(response.body).toMatchObject({ success: true, message: expect.any(String), data: expect.any(Object) });
    expect(response.body.timestamp).toMatch(/Z$/);
  });

  it('gives every response a request id, echoing a sane X-Request-Id', async () => {
    const response = await client.call('GET', '/healthz', undefined, { headers: { 'x-request-id': 'partner-trace-42' } });
    expect(response.headers.get('x-request-id')).toBe('partner-trace-42');
    const generated = await client.call('GET', '/healthz', undefined, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health and database readiness outside the versioned prefix', async () => {
    expect((await client.op('getHealth', 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await client.op('getReadiness', 'GET', '/readyz')).body).toEqual({ status: 'ready', database: 'up' });
  });

  it('serves the bundled document', async () => {
    const response = await client.call('GET', '/api/external/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
  });
});
