import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { paidOrder } from '../support/assistance-fixtures';
import { coverAround, decideClaim, fileClaim } from '../support/claim-fixtures';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';

/**
 * scripts/check-invariants.mjs on claims (decision records 0095, 0101), on this file's own
 * database: per policy and coverage line the approved and paid claims stay within the package's
 * limit, no payout exceeds its approval, every PAID claim has its payout record. Each violation
 * is planted in the database and must be reported, then taken back.
 */
const CHECKER = path.resolve(__dirname, '../../scripts/check-invariants.mjs');
const run = promisify(execFile);

async function checkInvariants(): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [CHECKER], { env: { ...process.env, DATABASE_URL: databaseUrl() } });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'claiminvariants' });
let partner: TestPartner;
let orderRef: string;
let paidRef: string;
let approvedRef: string;

beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Claim Invariants Treks' });
});

const sql = (statement: string, params: unknown[]) => server.orm.em.fork().getConnection().execute(statement, params);

/** Plants `plant`, expects the checker to exit 1 naming `check` and `ref`, then takes it back. */
async function reported(check: string, ref: string, plant: () => Promise<unknown>, undo: () => Promise<unknown>) {
  await plant();
  try {
    const result = await checkInvariants();
    expect(result.code).toBe(1);
    expect(result.output).toContain(`VIOLATION ${check}`);
    expect(result.output).toContain(ref);
  } finally {
    await undo();
  }
  expect((await checkInvariants()).code).toBe(0);
}

describe('the invariant checker on claims', () => {
  it('finds nothing wrong after one claim approved and paid and another approved, on the same policy and line', async () => {
    const order = await paidOrder(server, client, partner);
    orderRef = order.orderRef;
    await coverAround(server, order.orderId);
    const first = await fileClaim(client, partner, orderRef);
    const second = await fileClaim(client, partner, orderRef);
    expectStatus(first, 201);
    expectStatus(second, 201);
    paidRef = first.body.data.claimRef;
    approvedRef = second.body.data.claimRef;
    expectStatus(await decideClaim(client, partner, paidRef, { decision: 'PAID' }), 200);
    expectStatus(await decideClaim(client, partner, approvedRef, { decision: 'APPROVED' }), 200);
    const result = await checkInvariants();
    expect(result.output).toContain('"claims":2,"claimPayouts":1');
    expect(result.output).toContain('invariants: 0 violations');
    expect(result.code).toBe(0);
  });

  it("exits 1 naming the policy when its claims on a line were approved beyond the package's limit", async () => {
    // The 3,000 m package's medical line is 1,500,000.00 NPR; with the paid claim's 51,070.00 this passes it.
    await reported(
      'policy and coverage line whose approved and paid claims add up to more than the package limit',
      orderRef,
      () => sql(`update claim set approved_total = 1450000 where claim_ref = ?`, [approvedRef]),
      () => sql(`update claim set approved_total = 51070 where claim_ref = ?`, [approvedRef]),
    );
  });

  it('exits 1 naming the claim when its payout is more than it was approved', async () => {
    await reported(
      'claim paid more than it was approved',
      paidRef,
      () =>
        sql(
          `update claim_payout set amount = amount + 0.01 where claim_id = (select id from claim where claim_ref = ?)`,
          [paidRef],
        ),
      () =>
        sql(
          `update claim_payout set amount = amount - 0.01 where claim_id = (select id from claim where claim_ref = ?)`,
          [paidRef],
        ),
    );
  });

  it('exits 1 naming the claim when a claim reads PAID without its payout record', async () => {
    await reported(
      'PAID claim without its payout record',
      approvedRef,
      () => sql(`update claim set status = 'PAID' where claim_ref = ?`, [approvedRef]),
      () => sql(`update claim set status = 'APPROVED' where claim_ref = ?`, [approvedRef]),
    );
  });
});
