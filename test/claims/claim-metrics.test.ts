import { paidOrder } from '../support/assistance-fixtures';
import { claimRequest, coverAround, decideClaim, fileClaim } from '../support/claim-fixtures';
import { expectStatus } from '../support/expect-status';
import { sample } from '../support/metrics-sample';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';

/**
 * The claims desk in /metrics (issue 48 item 10), read from the database at each scrape as the
 * desk moves claims from another process: claims by status and type, filing to decision, NPR
 * approved. Other files' claims share the database, so each reading is held to a count of the rows.
 */
const { server, client } = useTestServer();
let partner: TestPartner;

const scrape = async () => (await client.op<string>('getMetrics', 'GET', '/metrics')).body;
const rows = <T>(sql: string) => server.orm.em.fork().getConnection().execute<T[]>(sql);

beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Claim Metrics Treks' });
  const order = await paidOrder(server, client, partner);
  await coverAround(server, order.orderId);
  const paid = (await fileClaim(client, partner, order.orderRef)).body.data.claimRef as string;
  expectStatus(await decideClaim(client, partner, paid, { decision: 'PAID' }), 200);
  // Filed two hours before its decision: between the 3,600 s and the 14,400 s buckets.
  await server.orm.em
    .fork()
    .getConnection()
    .execute(`update claim set filed_at = decided_at - interval '2 hours' where claim_ref = ?`, [paid]);
  const declined = (await fileClaim(client, partner, order.orderRef, claimRequest({ claimType: 'TRIP_CANCELLATION' })))
    .body.data.claimRef as string;
  expectStatus(
    await decideClaim(client, partner, declined, { decision: 'DECLINED', note: 'Not a covered reason' }),
    200,
  );
  expectStatus(await fileClaim(client, partner, order.orderRef), 201);
});

describe('claims in /metrics', () => {
  it('counts claims by status and type as the database holds them', async () => {
    const exposition = await scrape();
    const held = await rows<{ status: string; claim_type: string; n: number }>(
      `select status, claim_type, count(*)::int as n from claim group by 1, 2`,
    );
    expect(held).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'PAID', claim_type: 'MEDICAL_EXPENSES' }),
        expect.objectContaining({ status: 'DECLINED', claim_type: 'TRIP_CANCELLATION' }),
        expect.objectContaining({ status: 'SUBMITTED', claim_type: 'MEDICAL_EXPENSES' }),
      ]),
    );
    for (const { status, claim_type, n } of held)
      expect([status, claim_type, sample(exposition, 'claims', { status, claim_type })]).toEqual([
        status,
        claim_type,
        n,
      ]);
  });

  it('times filing to decision per decided claim in claim_seconds_to_decision', async () => {
    const exposition = await scrape();
    const [decided] = await rows<{ all: number; two_hours: number }>(
      `select count(*)::int as all,
         count(*) filter (where decided_at - filed_at > interval '3600 seconds' and decided_at - filed_at <= interval '14400 seconds')::int as two_hours
       from claim where decided_at is not null`,
    );
    const bucket = (le: string) => sample(exposition, 'claim_seconds_to_decision_bucket', { le }) ?? Number.NaN;
    expect(sample(exposition, 'claim_seconds_to_decision_count')).toBe(decided?.all);
    expect(bucket('+Inf')).toBe(decided?.all);
    expect(decided?.two_hours).toBeGreaterThanOrEqual(1);
    expect(bucket('14400') - bucket('3600')).toBe(decided?.two_hours);
  });

  it('sums the NPR approved on claims decided for payment, by type; a declined claim adds nothing', async () => {
    const exposition = await scrape();
    const approved = await rows<{ claim_type: string; npr: string }>(
      `select claim_type, sum(approved_total)::text as npr from claim
        where status in ('APPROVED', 'PARTIALLY_APPROVED', 'PAID', 'CLOSED') and approved_total is not null group by 1`,
    );
    expect(approved.map((row) => row.claim_type)).toContain('MEDICAL_EXPENSES');
    for (const { claim_type, npr } of approved)
      expect(sample(exposition, 'claims_approved_npr', { claim_type })).toBe(Number(npr));
    if (!approved.some((row) => row.claim_type === 'TRIP_CANCELLATION'))
      expect(sample(exposition, 'claims_approved_npr', { claim_type: 'TRIP_CANCELLATION' })).toBeUndefined();
  });
});
