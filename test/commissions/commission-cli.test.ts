import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CommissionEntry } from '../../src/modules/commissions/entities/commission-entry';
import { Company } from '../../src/modules/partners/entities/company';
import { periodOf } from '../../src/modules/commissions/rules/commission-period';
import { setCompanyCommission } from '../../src/modules/partners/commission-percents';
import { buildServer } from '../support/built-server';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { newAgent } from '../support/promo-fixtures';
import { SANDBOX_ENV, useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');
const run = promisify(execFile);
jest.setTimeout(120_000);

/** One `ops` command in its own process, as an operator runs it beside the server. */
async function ops(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
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
const thisMonth = periodOf(new Date());

async function paidOrder() {
  const order = await placeOrder(server, client, partner);
  const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
  expectStatus(
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!),
    200,
  );
  return order;
}

const amountsOf = async (orderId: string) =>
  (await server.orm.em.fork().find(CommissionEntry, { order: orderId })).map((entry) => [entry.percent, entry.amount]);

beforeAll(async () => {
  buildServer();
  partner = await newPartner(server, client, { name: 'Rolwaling CLI Treks', commissionPercent: '10.00' });
});

describe('ops company set-commission', () => {
  it('changes the percent for orders paid from then on; the lines already written keep theirs', async () => {
    const before = await paidOrder();
    const result = await ops('company', 'set-commission', partner.companyId, '12.5', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      id: partner.companyId,
      name: 'Rolwaling CLI Treks',
      previousPercent: '10.00',
      commissionPercent: '12.50',
    });
    const after = await paidOrder();
    expect(await amountsOf(before.orderId)).toEqual([['10.00', 450_00]]);
    expect(await amountsOf(after.orderId)).toEqual([['12.50', 562_50]]);
    await setCompanyCommission(server.orm.em.fork(), partner.companyId, '10');
  });

  it('refuses a percent out of 0 to 100, or with more than two decimals, and an unknown company, changing nothing', async () => {
    for (const percent of ['101', '-1', '10.555', 'ten']) {
      const result = await ops('company', 'set-commission', partner.companyId, percent);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('a commission percent is a number from 0 to 100');
    }
    expect((await ops('company', 'set-commission', 'not-a-company', '5')).stderr).toContain('no company not-a-company');
    expect((await server.orm.em.fork().findOneOrFail(Company, partner.companyId)).commissionPercent).toBe('10.00');
  });
});

describe('ops company set-pan', () => {
  it("records the company's PAN/VAT number its statements print, and refuses one that is not nine digits", async () => {
    const result = await ops('company', 'set-pan', partner.companyId, '601234567', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      id: partner.companyId,
      name: 'Rolwaling CLI Treks',
      previousPanNumber: null,
      panNumber: '601234567',
    });
    const refused = await ops('company', 'set-pan', partner.companyId, '60123');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('a PAN/VAT number is nine digits');
    expect((await server.orm.em.fork().findOneOrFail(Company, partner.companyId)).panNumber).toBe('601234567');
  });
});

describe('ops agent set-commission', () => {
  it("sets the agent's percent (default 0)", async () => {
    const agent = await newAgent(server, 'Pemba CLI Agent');
    const result = await ops('agent', 'set-commission', agent.id, '2', '--json');
    expect(JSON.parse(result.stdout)).toMatchObject({
      id: agent.id,
      previousPercent: '0.00',
      commissionPercent: '2.00',
    });
  });
});

describe('ops commission statement', () => {
  it('prints the totals of the period and writes each statement as CSV or PDF into the directory', async () => {
    await paidOrder();
    const listed = JSON.parse(
      (await ops('commission', 'statement', '--period', thisMonth, '--company', partner.companyId, '--json')).stdout,
    );
    expect(listed.statements).toEqual([
      expect.objectContaining({
        companyId: partner.companyId,
        companyName: 'Rolwaling CLI Treks',
        period: thisMonth,
        status: 'OPEN',
        lineCount: 3,
      }),
    ]);

    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'commission-'));
    const csv = await ops(
      'commission',
      'statement',
      '--period',
      thisMonth,
      '--company',
      partner.companyId,
      '--csv',
      directory,
    );
    const csvFile = path.join(directory, `commission-${thisMonth}-${partner.companyId}.csv`);
    expect(csv.stdout).toContain(`wrote ${csvFile}`);
    expect(fs.readFileSync(csvFile, 'utf8').trimEnd().split('\r\n')).toHaveLength(4);

    const pdf = await ops(
      'commission',
      'statement',
      '--period',
      thisMonth,
      '--company',
      partner.companyId,
      '--pdf',
      directory,
    );
    expect(pdf.code).toBe(0);
    expect(
      fs
        .readFileSync(path.join(directory, `commission-${thisMonth}-${partner.companyId}.pdf`))
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('refuses a period that is not a month', async () => {
    const result = await ops('commission', 'statement', '--period', '2030-13');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--period must be a month like 2030-09');
  });
});
