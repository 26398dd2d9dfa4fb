import type { RunningServer } from '../../src/server';
import { ApiClient } from '../support/http-client';
import { newPartner } from '../support/partners';
import { startTestServer } from '../support/test-server';

/** The value of one sample line, e.g. `http_requests_total{operation="listRoutes",...}`. */
function sample(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of exposition.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  let server: RunningServer;
  let client: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = new ApiClient(server.url);
  });
  afterAll(() => server.stop());

  const scrape = async (): Promise<string> => {
    const response = await client.op<string>('getMetrics', 'GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return response.body;
  };

  it('counts requests per operationId and status, and times them', async () => {
    const partner = await newPartner(server, client);
    for (let i = 0; i < 3; i += 1) await client.op('listRoutes', 'GET', '/api/external/v1/reference/routes', undefined, { token: partner.token });
    await client.op('listRoutes', 'GET', '/api/external/v1/reference/routes', undefined, { token: 'wrong' });
    await client.op('createQuote', 'POST', '/api/external/v1/reference/quote', { ages: [300] }, { token: partner.token });

    const metrics = await scrape();
    expect(sample(metrics, 'http_requests_total', { operation: 'listRoutes', method: 'GET', status: '200' })).toBe(3);
    expect(sample(metrics, 'http_requests_total', { operation: 'listRoutes', status: '401' })).toBe(1);
    expect(sample(metrics, 'http_requests_total', { operation: 'createQuote', status: '400' })).toBe(1);
    expect(sample(metrics, 'http_request_duration_seconds_count', { operation: 'listRoutes', status: '200' })).toBe(3);
    expect(sample(metrics, 'http_request_duration_seconds_bucket', { operation: 'listRoutes', status: '200', le: '+Inf' })).toBe(3);
  });

  it('labels unknown paths as one "unmatched" operation, so a scanner cannot multiply series', async () => {
    await client.call('GET', '/wp-admin/one');
    await client.call('GET', '/wp-admin/two');
    const metrics = await scrape();
    expect(sample(metrics, 'http_requests_total', { operation: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(2);
    expect(metrics).not.toContain('wp-admin');
  });

  it('reports database pool usage', async () => {
    const metrics = await scrape();
    expect(sample(metrics, 'db_pool_connections_max')).toBe(10);
    expect(sample(metrics, 'db_pool_connections_used')).toBeGreaterThanOrEqual(0);
    expect(sample(metrics, 'db_pool_connections_idle')).toBeGreaterThanOrEqual(1);
    expect(sample(metrics, 'db_pool_acquire_pending')).toBe(0);
  });

  it('exposes the payment outcome counter that payments increment', async () => {
    const metrics = await scrape();
    expect(metrics).toContain('# TYPE payment_outcomes_total counter');
    expect(metrics).toContain('# TYPE rate_limited_requests_total counter');
    expect(metrics).toContain('process_cpu_seconds_total');
  });
});
