import { newPartner } from '../support/partners';
import { sample, scrapeMetricsPort } from '../support/metrics-sample';
import { pay, placeOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

describe('GET /metrics', () => {
  const { server, client } = useTestServer();

  const scrape = async (): Promise<string> => {
    const response = await client.op<string>('getMetrics', 'GET', '/metrics');
    expectStatus(response, 200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return response.body;
  };

  it('counts requests per operationId and status, and times them', async () => {
    const partner = await newPartner(server, client);
    for (let i = 0; i < 3; i += 1)
      await client.op('listRoutes', 'GET', '/api/external/v1/reference/routes', undefined, { token: partner.token });
    await client.op('listRoutes', 'GET', '/api/external/v1/reference/routes', undefined, { token: 'wrong' });
    await client.op(
      'createQuote',
      'POST',
      '/api/external/v1/reference/quote',
      { ages: [300] },
      { token: partner.token },
    );

    const metrics = await scrape();
    expect(sample(metrics, 'http_requests_total', { operation: 'listRoutes', method: 'GET', status: '200' })).toBe(3);
    expect(sample(metrics, 'http_requests_total', { operation: 'listRoutes', status: '401' })).toBe(1);
    expect(sample(metrics, 'http_requests_total', { operation: 'createQuote', status: '400' })).toBe(1);
    expect(sample(metrics, 'http_request_duration_seconds_count', { operation: 'listRoutes', status: '200' })).toBe(3);
    expect(
      sample(metrics, 'http_request_duration_seconds_bucket', { operation: 'listRoutes', status: '200', le: '+Inf' }),
    ).toBe(3);
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

  it('counts orders created, payments started by gateway and promo rejections', async () => {
    const partner = await newPartner(server, client);
    const order = await placeOrder(server, client, partner);
    expectStatus(await pay(client, partner, order.orderRef, { gateway: 'card_gateway' }), 200);
    const promo = await client.op(
      'applyOrderPromo',
      'POST',
      `/api/external/v1/orders/${order.orderRef}/promo`,
      { promoCode: 'NO-SUCH-CODE' },
      { token: partner.token },
    );
    expectStatus(promo, 400);

    const metrics = await scrape();
    expect(sample(metrics, 'orders_created_total', { kind: 'single' })).toBe(1);
    expect(sample(metrics, 'payment_starts_total', { gateway: 'card_gateway' })).toBe(1);
    expect(sample(metrics, 'promo_operations_total', { operation: 'applyOrderPromo', outcome: 'rejected' })).toBe(1);
  });
});

describe('metrics on METRICS_PORT', () => {
  const TOKEN = 'scrape-token-0123456789abcdef';
  const { server, client } = useTestServer({ env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });

  it('when metrics have their own port, then the partner-facing listener answers /metrics 404', async () => {
    const response = await client.op('getMetrics', 'GET', '/metrics');
    expectStatus(response, 404);
  });

  it('when the scraper sends the token, then the metrics port answers; without it, or with another, a 401', async () => {
    await client.op('getHealth', 'GET', '/healthz');
    const port = server.metricsPort!;
    expectStatus(await scrapeMetricsPort(port), 401);
    expectStatus(await scrapeMetricsPort(port, 'x'.repeat(TOKEN.length)), 401);
    const scraped = await scrapeMetricsPort(port, TOKEN);
    expectStatus(scraped, 200);
    expect(
      sample(scraped.body, 'http_requests_total', { operation: 'getHealth', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expectStatus(await fetch(`http://127.0.0.1:${port}/api/external/v1/reference/routes`), 404);
  });
});
