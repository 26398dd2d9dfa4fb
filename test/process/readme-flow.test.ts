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
import { expectStatus } from '../support/expect-status';
import { requireSystemTool } from '../support/system-tools';

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
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script.replaceAll('http://localhost:3000', url)], {
    cwd,
    timeout: 60_000,
  });
  return stdout;
}

let server: RunningServer;
/** The partner's shell between the two blocks: its folder (where certificate.pdf lands) and what it keeps. */
let shell: string;

beforeAll(async () => {
  // The README's blocks call curl and jq as a partner's shell would.
  requireSystemTool('curl');
  requireSystemTool('jq');
  server = await startTestServer();
  shell = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-shell-'));
});
afterAll(async () => {
  fs.rmSync(shell, { recursive: true, force: true });
  await server.stop();
});

describe("README's booking flow and after-sale flow with curl", () => {
  it('books as written against the sandbox, is paid through the hosted card page, then moves, lists, cancels and follows the refund as written', async () => {
    const booking = readmeBlock('The booking flow with curl');
    expect(booking).toContain('BASE=http://localhost:3000/api/external/v1');
    // The shell the partner keeps open between the two blocks: its variables and functions, kept in a file.
    const kept = path.join(shell, 'kept.sh');
    const stdout = await runBlock(
      `${booking}\n{ declare -p BASE TOKEN AUTH START ORDER_REF; declare -f; } > '${kept}'\n`,
      server.url,
      ROOT,
    );

    expect(stdout).toContain('"name": "Everest Base Camp Trek"');
    expect(stdout).toMatch(/"status": "PENDING"/);
    expect(stdout).toMatch(/"promoCode": "HIMALAYA10",\s+"applied": true/);
    expect(stdout).toMatch(/"paymentStatus": "INITIATED"/);
    const orderRef = captured(/"orderRef": "(ORD-\d{4}-\d+)"/.exec(stdout), 1, 'the orderRef');
    const paymentUrl = captured(/"paymentUrl": "([^"]+)"/.exec(stdout), 1, 'the paymentUrl');
    const keptText = fs.readFileSync(kept, 'utf8');
    const token = captured(/TOKEN="([^"]+)"/.exec(keptText), 1, 'the kept TOKEN');
    const start = captured(/START="(\d{4}-\d{2}-\d{2})"/.exec(keptText), 1, 'the kept START');

    // "open paymentUrl in a browser and pay with test card 4242 4242 4242 4242"
    const client = new ApiClient(server.url);
    const checkout = await submitCheckout(paymentUrl, APPROVE_CARD);
    expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
    const status = await client.op(
      'getPaymentStatus',
      'GET',
      `/api/external/v1/orders/${orderRef}/payment-status`,
      undefined,
      { token },
    );
    expect(status.body.data).toMatchObject({
      orderRef,
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentMethod: 'CARD_GATEWAY',
    });

    // "Continues in the same shell once the order is paid", in the shell's own folder.
    const after = await runBlock(`source '${kept}'\n${readmeBlock('After the sale with curl')}`, server.url, shell);

    expect(fs.readFileSync(path.join(shell, 'certificate.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(after).toMatch(/"events": \[\s+"\*"\s+\],\s+"secret": "whsec_/);
    const later = new Date(`${start}T00:00:00Z`);
    later.setUTCDate(later.getUTCDate() + 7);
    expect(after).toContain(`"departureDate": "${later.toISOString().slice(0, 10)}"`);
    expect(after).toContain(`"orderRef": "${orderRef}"`);
    expect(after).toMatch(/"rule": "FREE_LOOK"/);
    expect(after).toMatch(/"refundRef": "RFD-\d{4}-\d+",\s+"status": "(PENDING|SUCCEEDED)",\s+"amount": [1-9]/);
    expect(after).toMatch(/"cause": "CANCELLATION"/);
  });
});
