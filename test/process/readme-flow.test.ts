import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningServer } from '../../src/server';
import { captured } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { APPROVE_CARD, deliverCallback, submitCheckout } from '../support/payment-fixtures';
import { startTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const ROOT = path.resolve(__dirname, '../..');
const run = promisify(execFile);

/** The bash block under README's "The booking flow with curl", exactly as a partner copies it. */
function readmeFlow(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The booking flow with curl'));
  const block = /```bash\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no bash block under "The booking flow with curl"');
  return captured(block, 1, 'the README bash block');
}

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe("README's booking flow with curl", () => {
  it('runs as written against the sandbox, and the order it makes is paid through the hosted card page', async () => {
    const script = readmeFlow();
    expect(script).toContain('BASE=http://localhost:3000/api/external/v1');
    // Only the address differs: the test server listens on a free port, not 3000.
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script.replace('http://localhost:3000', server.url)], { cwd: ROOT, timeout: 60_000 });

    expect(stdout).toContain('"name": "Everest Base Camp Trek"');
    expect(stdout).toMatch(/"status": "PENDING"/);
    expect(stdout).toMatch(/"promoCode": "HIMALAYA10",\s+"applied": true/);
    expect(stdout).toMatch(/"paymentStatus": "INITIATED"/);
    const orderRef = captured(/"orderRef": "(ORD-\d{4}-\d+)"/.exec(stdout), 1, 'the orderRef');
    const paymentUrl = captured(/"paymentUrl": "([^"]+)"/.exec(stdout), 1, 'the paymentUrl');

    // "open paymentUrl in a browser and pay with test card 4242 4242 4242 4242"
    const client = new ApiClient(server.url);
    const checkout = await submitCheckout(paymentUrl, APPROVE_CARD);
    expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
    const token = (await client.op('issueToken', 'POST', '/api/external/v1/auth/token', { clientId: 'demo-everest-trails', clientSecret: 'sandbox-secret-everest-trails' })).body.data.accessToken;
    const status = await client.op('getPaymentStatus', 'GET', `/api/external/v1/orders/${orderRef}/payment-status`, undefined, { token });
    expect(status.body.data).toMatchObject({ orderRef, orderStatus: 'PAID', paymentStatus: 'SUCCESS', paymentMethod: 'CARD_GATEWAY' });
  });
});
