import { ConfigError, loadConfig } from '../../src/config';
import { expectSchema } from '../support/contract';
import { liveProvidersEnv } from '../support/live-providers-env';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * The sandbox helpers exist only where sandbox payments are on (decision record
 * 0083): on a live server every one answers 404 in error shape 2, to a caller
 * with a token as to one without, the published document does not list them, and production
 * refuses to start with sandbox payments at all.
 */
const { server, client } = useTestServer({
  env: { ...liveProvidersEnv(), PAYMENT_MODE: 'live', SEED_DEMO_DATA: 'false' },
});
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Live Only Treks' });
});

const HELPERS: Array<[string, string, unknown]> = [
  ['POST', '/api/external/v1/sandbox/payments/ORD-2030-000142-1916122811482/outcome', { outcome: 'CAPTURED' }],
  ['POST', '/api/external/v1/sandbox/refunds/RFD-2030-000017/outcome', { outcome: 'FAILED' }],
  ['GET', '/api/external/v1/sandbox/clock', undefined],
  ['PUT', '/api/external/v1/sandbox/clock', { today: '2030-10-15' }],
  ['DELETE', '/api/external/v1/sandbox/clock', undefined],
  ['POST', '/api/external/v1/sandbox/events', { type: 'order.paid' }],
  ['POST', '/api/external/v1/sandbox/assistance-cases/AST-2030-000031/decision', { decision: 'AUTHORISED' }],
];

describe('the sandbox helpers without sandbox payments', () => {
  it.each(HELPERS)(
    '%s %s answers 404 NOT_FOUND in error shape 2, with a token or without',
    async (method, path, body) => {
      for (const token of [partner.token, undefined]) {
        const response = await client.call(method, path, body, { token });
        expectStatus(response, 404);
        expectSchema('ApiError', response.body);
        expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: `No endpoint ${method} ${path}` });
        expect(response.headers.get('sandbox-today')).toBeNull();
      }
    },
  );

  it('a Sandbox-Clock header is ignored, however it reads: there are no clocks to name', async () => {
    const response = await client.op('listOrders', 'GET', '/api/external/v1/orders', undefined, {
      token: partner.token,
      headers: { 'sandbox-clock': 'no clock name' },
    });
    expectStatus(response, 200);
    expect(response.headers.get('sandbox-today')).toBeNull();
  });

  it('the published document lists neither the helpers nor their tag, and its guide has no sandbox section', async () => {
    const published = (await client.call('GET', '/api/external/v1/openapi.json', undefined, { direct: true })).body;
    expect(Object.keys(published.paths).filter((path) => path.includes('/sandbox/'))).toEqual([]);
    expect(published.tags.map((tag: { name: string }) => tag.name)).not.toContain('Sandbox');
    expect(published.info.description).not.toMatch(/^## (Sandbox|Testing your integration)$/m);
    expect(published.info.description).not.toContain('sandbox-secret-');
    expect(published.info.description).toMatch(/^## Receiving webhooks$/m);
  });

  it('the /docs page is built from that document: no helper, no demo credential, no sandbox section', async () => {
    const page = await client.call<string>('GET', '/docs', undefined, { direct: true });
    expectStatus(page, 200);
    expect(page.body).toContain('Partner Booking');
    expect(page.body).toContain('getOrderCertificate');
    for (const sandboxOnly of [
      'setSandboxPaymentOutcome',
      'sandbox-secret-',
      'demo-everest-trails',
      'Testing your integration',
    ])
      expect({ sandboxOnly, shown: page.body.includes(sandboxOnly) }).toEqual({ sandboxOnly, shown: false });
  });
});

describe('production settings', () => {
  it('refuse PAYMENT_MODE=sandbox, which would enable the helpers', () => {
    let problems: string[] = [];
    try {
      loadConfig({
        NODE_ENV: 'production',
        ...liveProvidersEnv(),
        PAYMENT_MODE: 'sandbox',
        CARD_GATEWAY_PROVIDER: 'sandbox',
        WALLET_GATEWAY_PROVIDER: 'sandbox',
      });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems = error.problems;
    }
    expect(problems).toContain('PAYMENT_MODE=sandbox is not allowed when NODE_ENV=production');
  });
});
