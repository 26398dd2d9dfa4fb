import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningServer } from '../../src/server';
import { captured } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { APPROVE_CARD, deliverCallback, submitCheckout } from '../support/payment-fixtures';
import { startTestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');
const run = promisify(execFile);

/** The first bash block under a README heading, exactly as a partner copies it. */
function readmeBlock(heading: string): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`## ${heading}\n`);
  if (at < 0) throw new Error(`README has no section "${heading}"`);
  const block = /```bash\n([\s\S]*?)```/.exec(readme.slice(at));
  return captured(block, 1, `the README bash block under "${heading}"`);
}

/** Runs a README block in bash (-euo pipefail); only the address differs: the test server listens on a free port, not 3000. */
async function runBlock(script: string, url: string, cwd: string): Promise<string> {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script.replaceAll('http://localhost:3000', url)], { cwd, timeout: 60_000 });
  return stdout;
}

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

describe("README's booking flow and after-sale flow with curl", () => {
  it('books as written against the sandbox, is paid through the hosted card page, then moves, lists, cancels and follows the refund as written', async () => {
    const booking = readmeBlock('The booking flow with curl');
    expect(booking).toContain('BASE=http://localhost:3000/api/external/v1');
    // The shell the partner keeps open between the two blocks: what the second one uses of the first.
    const kept = `\nprintf '\\n__KEPT__ %s %s\\n' "$TOKEN" "$START"\n`;
    const stdout = await runBlock(booking + kept, server.url, ROOT);

    expect(stdout).toContain('"name": "Everest Base Camp Trek"');
    expect(stdout).toMatch(/"status": "PENDING"/);
    expect(stdout).toMatch(/"promoCode": "HIMALAYA10",\s+"applied": true/);
    expect(stdout).toMatch(/"paymentStatus": "INITIATED"/);
    const orderRef = captured(/"orderRef": "(ORD-\d{4}-\d+)"/.exec(stdout), 1, 'the orderRef');
    const paymentUrl = captured(/"paymentUrl": "([^"]+)"/.exec(stdout), 1, 'the paymentUrl');
    const [token = '', start = ''] = captured(/__KEPT__ (.+)/.exec(stdout), 1, 'the kept variables').split(' ');

    // "open paymentUrl in a browser and pay with test card 4242 4242 4242 4242"
    const client = new ApiClient(server.url);
    const checkout = await submitCheckout(paymentUrl, APPROVE_CARD);
    expect((await deliverCallback(client, checkout.callbackUrl!)).status).toBe(200);
    const status = await client.op('getPaymentStatus', 'GET', `/api/external/v1/orders/${orderRef}/payment-status`, undefined, { token });
    expect(status.body.data).toMatchObject({ orderRef, orderStatus: 'PAID', paymentStatus: 'SUCCESS', paymentMethod: 'CARD_GATEWAY' });

    // "Continues in the same shell once the order is paid": in a folder of its own, where certificate.pdf lands.
    const shell = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-after-sale-'));
    try {
      const same = `BASE=http://localhost:3000/api/external/v1\nTOKEN=${token}\nAUTH="authorization: Bearer $TOKEN"\nSTART=${start}\nORDER_REF=${orderRef}\n`;
      const after = await runBlock(same + readmeBlock('After the sale with curl'), server.url, shell);

      expect(fs.readFileSync(path.join(shell, 'certificate.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
      expect(after).toMatch(/"events": \[\s+"\*"\s+\],\s+"secret": "whsec_/);
      const later = new Date(`${start}T00:00:00Z`);
      later.setUTCDate(later.getUTCDate() + 7);
      expect(after).toContain(`"departureDate": "${later.toISOString().slice(0, 10)}"`);
      expect(after).toContain(`"orderRef": "${orderRef}"`);
      expect(after).toMatch(/"rule": "FREE_LOOK"/);
      expect(after).toMatch(/"refundRef": "RFD-\d{4}-\d+",\s+"status": "(PENDING|SUCCEEDED)",\s+"amount": [1-9]/);
      expect(after).toMatch(/"cause": "CANCELLATION"/);
    } finally {
      fs.rmSync(shell, { recursive: true, force: true });
    }
  });
});
