import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * POST /sandbox/events counts against the per-company webhook write limit, the counter the
 * endpoint test and replay operations share (a test event fans out like a replay). client.op
 * checks every answer against the spec's schema for its status, the 429 among them.
 */
const { server, client } = useTestServer({
  env: { RATE_LIMIT_WEBHOOK_PER_COMPANY: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' },
});
let agency: TestPartner;
let other: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Event Limit Treks Pvt. Ltd.' });
  other = await newPartner(server, client, { name: 'Other Event Limit Treks' });
});

const send = (caller: TestPartner) =>
  client.op(
    'sendSandboxEvent',
    'POST',
    '/api/external/v1/sandbox/events',
    { type: 'order.paid' },
    { token: caller.token },
  );

describe('POST /sandbox/events under the webhook write limit', () => {
  it('when a company sends more test events than its webhook write limit, then 429 with Retry-After, and the endpoint writes of a company spend the same count', async () => {
    for (let i = 0; i < 3; i++) expectStatus(await send(agency), 202);
    const limited = await send(agency);
    expectStatus(limited, 429);
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // One counter with the endpoint writes (test and replay among them): an endpoint created leaves two events.
    const endpoints = await client.op(
      'createWebhookEndpoint',
      'POST',
      '/api/external/v1/webhook-endpoints',
      { url: 'https://hooks.event-limit.example.com/pbs', events: ['*'] },
      { token: other.token },
    );
    expectStatus(endpoints, 201);
    expectStatus(await send(other), 202);
    expectStatus(await send(other), 202);
    expectStatus(await send(other), 429);
  });
});
