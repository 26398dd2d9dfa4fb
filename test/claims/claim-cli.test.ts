import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { kathmanduToday } from '../../src/kernel/business-date';
import { buildServer } from '../support/built-server';
import { paidOrder } from '../support/assistance-fixtures';
import { coverAround, fileClaim, readClaim } from '../support/claim-fixtures';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { SANDBOX_ENV, useTestServer } from '../support/test-server';

const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');
const run = promisify(execFile);
jest.setTimeout(180_000);

/** One `ops` command in its own process, as the claims desk runs it beside the server. */
async function ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'claim', ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: process.env.TEST_DATABASE_URL, ...SANDBOX_ENV },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const { server, client } = useTestServer();
let partner: TestPartner;

beforeAll(async () => {
  buildServer();
  partner = await newPartner(server, client, { name: 'Claims Desk CLI Treks' });
});

describe('ops claim', () => {
  it('the desk lists, assesses, approves at its rate, pays and closes a claim; each refused move says why', async () => {
    const order = await paidOrder(server, client, partner);
    await coverAround(server, order.orderId);
    const { claimRef } = (await fileClaim(client, partner, order.orderRef)).body.data;

    const listed = await ops('list', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ claimRef, status: 'SUBMITTED', flags: ['CURRENCY_CONVERSION'] }),
      ]),
    );

    const early = await ops('approve', claimRef, '--rate', '1=133.50', '--rate-date', kathmanduToday());
    expect(early.code).not.toBe(0);
    expect(early.stderr).toContain(`Claim ${claimRef} is SUBMITTED; only an UNDER_ASSESSMENT claim can be approved`);

    expect((await ops('assess', claimRef)).code).toBe(0);
    const noRate = await ops('approve', claimRef);
    expect(noRate.code).not.toBe(0);
    expect(noRate.stderr).toContain('give the exchange rate used (NPR for 1 USD)');
    const badRate = await ops('approve', claimRef, '--rate', '1=abc');
    expect(badRate.code).not.toBe(0);
    expect(badRate.stderr).toContain('--rate 1= must be a positive rate');

    // USD 380.00 of 420.00 at 133.50 = 50,730.00 NPR, less the 5,000.00 excess: 45,730.00.
    const approved = await ops(
      'approve',
      claimRef,
      '--amount',
      '1=380.00',
      '--rate',
      '1=133.50',
      '--rate-date',
      kathmanduToday(),
    );
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`${claimRef} is now PARTIALLY_APPROVED`);
    const read = await readClaim(client, partner, claimRef);
    expectStatus(read, 200);
    expect(read.body.data.decision).toMatchObject({ approvedTotal: 45730, excessApplied: 5000 });

    const paid = await ops(
      'pay',
      claimRef,
      '--method',
      'khalti',
      '--reference',
      'KHT-8812003',
      '--paid-on',
      kathmanduToday(),
    );
    expect(paid.code).toBe(0);
    expect((await ops('close', claimRef)).code).toBe(0);
    const shown = await ops('show', claimRef);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Payout: NPR 45730 by KHALTI, KHT-8812003, on ${kathmanduToday()}`);
    expect(shown.stdout).toContain('CLAIM_STATUS_CHANGED');
    expect((await readClaim(client, partner, claimRef)).body.data.status).toBe('CLOSED');
  });
});
