import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { kathmanduToday } from '../../src/kernel/business-date';
import { OperatorRefusal } from '../../src/kernel/operator-refusal';
import { billCase, deskMove } from '../../src/modules/claims';
import { billingRefusal } from '../../src/modules/claims/rules/case-billing';
import { assess } from '../../src/modules/claims/rules/assessment';
import { buildServer } from '../support/built-server';
import { openCase, paidOrder } from '../support/assistance-fixtures';
import { claimRequest, coverAround, fileClaim, listClaims, readClaim } from '../support/claim-fixtures';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { SANDBOX_ENV, useTestServer } from '../support/test-server';

/**
 * `ops case bill` (decision record 0101): the operator's invoice of an assistance case authorised
 * with a guarantee of payment becomes an EMERGENCY_EVACUATION claim paid to the provider, payable
 * up to the guarantee unless the desk raises it with a note; the partner finds it under the case
 * and the order. client.op checks every answer against the spec's schema for its status.
 */
const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');
const run = promisify(execFile);
jest.setTimeout(180_000);

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

beforeAll(async () => {
  buildServer();
  partner = await newPartner(server, client, { name: 'Case Billing Treks' });
});

const decideCase = (caseRef: string, body: Record<string, unknown>) =>
  client.op(
    'setSandboxAssistanceCaseDecision',
    'POST',
    `/api/external/v1/sandbox/assistance-cases/${encodeURIComponent(caseRef)}/decision`,
    body,
    { token: partner.token },
  );

/** A case opened on a paid order covering today, taken under review, and authorised when asked. */
async function caseOnCover(authorise: boolean): Promise<{ caseRef: string; orderRef: string }> {
  const order = await paidOrder(server, client, partner);
  await coverAround(server, order.orderId);
  const opened = await openCase(client, partner, order.orderRef);
  expectStatus(opened, 201);
  const caseRef = opened.body.data.caseRef as string;
  expectStatus(await decideCase(caseRef, { decision: 'UNDER_REVIEW' }), 200);
  if (authorise)
    expectStatus(
      await decideCase(caseRef, { decision: 'AUTHORISED', operator: 'Simrik Air', costLimit: 650_000 }),
      200,
    );
  return { caseRef, orderRef: order.orderRef };
}

const bill = (caseRef: string, invoice: Partial<Parameters<typeof billCase>[2]> = {}) =>
  billCase(
    server.orm.em,
    caseRef,
    { invoiceNumber: `SIM-${caseRef}`, amount: 600_000, currency: 'USD', ...invoice },
    { actor: 'operator-cli:test', noticeDays: 90 },
  );

describe('ops case bill', () => {
  it("the invoice of an authorised case becomes the provider's evacuation claim, seen under the case and the order; a case billed twice or not authorised is refused with the reason", async () => {
    const waiting = await caseOnCover(false);
    const early = await ops(
      'case',
      'bill',
      waiting.caseRef,
      '--invoice',
      'SIM-1',
      '--amount',
      '10',
      '--currency',
      'USD',
    );
    expect(early.code).not.toBe(0);
    expect(early.stderr).toContain(
      `Assistance case ${waiting.caseRef} is UNDER_REVIEW; only a case the desk authorised`,
    );

    const { caseRef, orderRef } = await caseOnCover(true);
    const loneNote = await ops(
      'case',
      'bill',
      caseRef,
      '--invoice',
      'SIM-2',
      '--amount',
      '10',
      '--currency',
      'USD',
      '--note',
      'why',
    );
    expect(loneNote.code).not.toBe(0);
    expect(loneNote.stderr).toContain('--raise-to and --note go together');

    const billed = await ops(
      'case',
      'bill',
      caseRef,
      '--invoice',
      'SIM-2026-0931',
      '--amount',
      '6000.00',
      '--currency',
      'usd',
      '--json',
    );
    expect(billed.code).toBe(0);
    const shown = JSON.parse(billed.stdout) as { claimRef: string; payoutCap: string };
    expect(shown).toMatchObject({ caseRef, orderRef, status: 'SUBMITTED', payoutCap: '650000.00' });

    const desk = await ops('claim', 'show', shown.claimRef);
    expect(desk.stdout).toContain('payable up to NPR 650000.00 (guarantee of payment)');

    const read = await readClaim(client, partner, shown.claimRef);
    expectStatus(read, 200);
    expect(read.body.data).toMatchObject({
      claimType: 'EMERGENCY_EVACUATION',
      assistanceCaseRef: caseRef,
      payee: { type: 'PROVIDER' },
      flags: ['CURRENCY_CONVERSION'],
      items: [
        expect.objectContaining({
          amount: 6000,
          currency: 'USD',
          invoiceNumber: 'SIM-2026-0931',
          providerName: 'Simrik Air',
        }),
      ],
    });
    expect(read.body.data.timeline[0]).toMatchObject({ kind: 'FILED', by: 'DESK' });
    expect(read.body.data.timeline[0].note).toContain("payable up to the guarantee's NPR 650000.00");

    for (const query of [`?assistanceCaseRef=${caseRef}`, `?orderRef=${orderRef}`]) {
      const listed = await listClaims(client, partner, query);
      expectStatus(listed, 200);
      expect(listed.body.data.content.map((claim: { claimRef: string }) => claim.claimRef)).toEqual([shown.claimRef]);
    }
    const otherCase = await listClaims(client, partner, `?assistanceCaseRef=${waiting.caseRef}`);
    expectStatus(otherCase, 200);
    expect(otherCase.body.data.content).toEqual([]);

    const twice = await ops('case', 'bill', caseRef, '--invoice', 'SIM-OTHER', '--amount', '10', '--currency', 'USD');
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain(`Assistance case ${caseRef} is already billed as ${shown.claimRef}`);

    // USD 6,000.00 at 133.50 = 801,000.00 NPR, less the 5,000.00 excess = 796,000.00: the guarantee caps it at 650,000.00.
    await deskMove(server.orm.em, shown.claimRef, { step: 'ASSESS' }, 'operator-cli:test');
    const approved = await deskMove(
      server.orm.em,
      shown.claimRef,
      { step: 'APPROVE', figures: new Map([[1, { exchangeRate: '133.50', rateDate: kathmanduToday() }]]) },
      'operator-cli:test',
    );
    expect(approved.view.claim.status).toBe('PARTIALLY_APPROVED');
    expect(approved.view.claim.approvedTotal).toBe(65_000_000);
  });

  it('the desk raises the cap with a note: the same invoice is then approved in full', async () => {
    const { caseRef } = await caseOnCover(true);
    await expect(bill(caseRef, { raise: { to: 65_000_000, note: 'at the guarantee' } })).rejects.toThrow(
      "--raise-to must be more than the guarantee's cost limit of NPR 650000.00",
    );
    const billed = await bill(caseRef, { raise: { to: 90_000_000, note: 'Second rotation flown in bad weather' } });
    const claimRef = billed.view.claim.claimRef;
    expect(billed.view.claim.payoutCap).toBe(90_000_000);
    expect(billed.timeline[0]?.note).toContain('raised from the guarantee');
    await deskMove(server.orm.em, claimRef, { step: 'ASSESS' }, 'operator-cli:test');
    const approved = await deskMove(
      server.orm.em,
      claimRef,
      { step: 'APPROVE', figures: new Map([[1, { exchangeRate: '133.50', rateDate: kathmanduToday() }]]) },
      'operator-cli:test',
    );
    expect(approved.view.claim).toMatchObject({ status: 'APPROVED', approvedTotal: 79_600_000 });
  });

  it('an invoice the partner already claimed on the policy is refused, naming the claim; an unknown case is refused', async () => {
    const { caseRef, orderRef } = await caseOnCover(true);
    const filed = await fileClaim(
      client,
      partner,
      orderRef,
      claimRequest({
        items: [
          {
            description: 'Helicopter rescue',
            amount: 6000,
            currency: 'USD',
            invoiceNumber: 'SIM-DUP-1',
            providerName: 'Simrik Air',
          },
        ],
      }),
    );
    expectStatus(filed, 201);
    await expect(bill('AST-2030-999999')).rejects.toThrow('no assistance case AST-2030-999999');
    await expect(bill(caseRef, { invoiceNumber: 'sim-dup-1' })).rejects.toThrow(
      new OperatorRefusal(`Invoice sim-dup-1 is already claimed on this policy by ${filed.body.data.claimRef}`),
    );
  });
});

describe('billingRefusal', () => {
  const facts = {
    caseRef: 'AST-2030-000031',
    status: 'AUTHORISED',
    authorised: true,
    guarantee: { costLimit: 65_000_000, currency: 'NPR' },
    billedBy: null,
    raiseTo: null,
  };

  it('bills an authorised, completed or closed case under a rupee guarantee, once', () => {
    for (const status of ['AUTHORISED', 'COMPLETED', 'CLOSED']) expect(billingRefusal({ ...facts, status })).toBeNull();
    expect(billingRefusal({ ...facts, raiseTo: 65_000_001 })).toBeNull();
  });

  it('refuses a case not authorised, without a guarantee, billed already, or a raise not above the guarantee', () => {
    for (const status of ['RECEIVED', 'UNDER_REVIEW', 'DECLINED', 'WITHDRAWN'])
      expect(billingRefusal({ ...facts, status, authorised: false })).toContain(
        `is ${status}; only a case the desk authorised`,
      );
    expect(billingRefusal({ ...facts, status: 'CLOSED', authorised: false })).toContain(
      'only a case the desk authorised',
    );
    expect(billingRefusal({ ...facts, guarantee: null })).toContain('has no guarantee of payment');
    expect(billingRefusal({ ...facts, guarantee: { costLimit: 1, currency: 'USD' } })).toContain('is in USD');
    expect(billingRefusal({ ...facts, billedBy: 'CLM-2030-000007' })).toContain('already billed as CLM-2030-000007');
    expect(billingRefusal({ ...facts, raiseTo: 65_000_000 })).toContain('--raise-to must be more than');
  });
});

describe('assess under a guarantee cap', () => {
  it('NPR 8,010.00 less a 500.00 excess is 7,510.00; a 6,500.00 cap makes it 6,500.00 and partial', () => {
    const item = {
      position: 1,
      amount: 801_000,
      currency: 'NPR',
      approvedAmount: 801_000,
      exchangeRate: null,
      rateDate: null,
    };
    const base = { items: [item], excess: 50_000, lineLimit: 10_000_000, earlierApproved: 0 };
    expect(assess(base)).toMatchObject({ approvedTotal: 751_000, step: 'APPROVE' });
    expect(assess({ ...base, cap: 650_000 })).toMatchObject({ approvedTotal: 650_000, step: 'APPROVE_PARTIALLY' });
    expect(assess({ ...base, cap: 751_000 })).toMatchObject({ approvedTotal: 751_000, step: 'APPROVE' });
  });
});
