import { kathmanduToday } from '../../src/kernel/business-date';
import { opsOutput } from '../support/built-cli';
import { buildServer } from '../support/built-server';
import { openCase, paidOrder, readCase } from '../support/assistance-fixtures';
import { coverAround, listClaims, readClaim } from '../support/claim-fixtures';
import { expectSchema } from '../support/contract';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from '../webhooks/webhook-api';

/**
 * Issue 48's process figure: a whole evacuation, the partner API and the two desks in their own
 * processes. The partner opens an assistance case; the assistance desk reviews it, authorises it
 * with a guarantee of payment and records the flight; the operator's USD invoice is billed into
 * an evacuation claim (`ops case bill`, decision record 0101); the claims desk approves it in NPR
 * at the rate it records, pays and closes it. Every webhook reaches the partner's endpoint and
 * verifies with the official `standardwebhooks` library, in its documented shape.
 */

// Every desk step is an `ops` process start (about a second on a loaded machine).
jest.setTimeout(240_000);

const { server, client, databaseUrl } = useTestServer({ backgroundJobs: true });
const receiver = new WebhookReceiver();
let placing: TestPartner;

const desk = (...args: string[]) => opsOutput(databaseUrl(), args);

beforeAll(async () => {
  buildServer();
  placing = await newPartner(server, client, { name: 'Evacuation Claim Treks Pvt. Ltd.' });
  const created = await webhookApi(client).create(placing, { url: await receiver.start(), events: ['*'] });
  if (created.status !== 201) throw new Error(`endpoint not registered: ${JSON.stringify(created.body)}`);
  receiver.secret = created.body.data.secret;
}, 120_000);

afterAll(() => receiver.stop());

const SCHEMAS: Record<string, string> = {
  'assistance_case.opened': 'AssistanceCaseOpenedEvent',
  'assistance_case.updated': 'AssistanceCaseUpdatedEvent',
  'claim.submitted': 'ClaimSubmittedEvent',
  'claim.decided': 'ClaimDecidedEvent',
  'claim.paid': 'ClaimPaidEvent',
};

describe('a whole evacuation, from the emergency call to the operator paid', () => {
  it('case opened, authorised with a guarantee, flown, the USD invoice billed, approved at the recorded rate, paid and closed: every webhook arrives signed, in order', async () => {
    const order = await paidOrder(server, client, placing);
    await coverAround(server, order.orderId);
    const opened = await openCase(client, placing, order.orderRef);
    expectStatus(opened, 201);
    const { caseRef } = opened.body.data;

    await desk('case', 'review', caseRef);
    await desk(
      'case',
      'authorise',
      caseRef,
      '--guarantee-ref',
      'GOP-2026-0412',
      '--operator',
      'Simrik Air',
      '--cost-limit',
      '650000',
      '--hospital',
      'CIWEC Hospital, Kathmandu',
    );
    await desk('case', 'complete', caseRef, '--note', 'Flown from Gorak Shep to Kathmandu');
    const billed = JSON.parse(
      await desk(
        'case',
        'bill',
        caseRef,
        '--invoice',
        'SIM-2026-0931',
        '--amount',
        '4850.00',
        '--currency',
        'USD',
        '--json',
      ),
    ) as { claimRef: string; payoutCap: string };
    const { claimRef } = billed;
    expect(billed.payoutCap).toBe('650000.00');
    const underCase = await listClaims(client, placing, `?assistanceCaseRef=${caseRef}`);
    expectStatus(underCase, 200);
    expect(underCase.body.data.content).toEqual([expect.objectContaining({ claimRef, status: 'SUBMITTED' })]);

    await desk('claim', 'assess', claimRef);
    const today = kathmanduToday();
    // USD 4,850.00 at 133.50 = 647,475.00 NPR, less the 5,000.00 excess: 642,475.00, within the 650,000.00 guarantee.
    expect(await desk('claim', 'approve', claimRef, '--rate', '1=133.50', '--rate-date', today)).toContain(
      `${claimRef} is now APPROVED`,
    );
    await desk(
      'claim',
      'pay',
      claimRef,
      '--method',
      'BANK_TRANSFER',
      '--reference',
      'NABIL-TT-55120',
      '--paid-on',
      today,
    );
    await desk('claim', 'close', claimRef, '--note', 'Operator paid under the guarantee');

    const claim = await readClaim(client, placing, claimRef);
    expectStatus(claim, 200);
    expect(claim.body.data).toMatchObject({
      status: 'CLOSED',
      claimType: 'EMERGENCY_EVACUATION',
      assistanceCaseRef: caseRef,
      payee: { type: 'PROVIDER' },
      decision: { approvedTotal: 642475, excessApplied: 5000 },
      payout: { amount: 642475, currency: 'NPR', method: 'BANK_TRANSFER', reference: 'NABIL-TT-55120', paidOn: today },
    });
    expect(claim.body.data.items[0].decision).toMatchObject({
      approvedAmount: 4850,
      exchangeRate: '133.5000',
      rateDate: today,
      approvedNpr: 647475,
    });
    expect(
      claim.body.data.timeline.map(
        (entry: { kind: string; status: string; by: string }) => `${entry.by}:${entry.status}`,
      ),
    ).toEqual(['DESK:SUBMITTED', 'DESK:UNDER_ASSESSMENT', 'DESK:APPROVED', 'DESK:PAID', 'DESK:CLOSED']);
    expect((await readCase(client, placing, caseRef)).body.data.status).toBe('COMPLETED');

    const ofThis = () =>
      receiver.unique().filter((event) => event.data.caseRef === caseRef || event.data.claimRef === claimRef);
    await receiver.waitFor(() => ofThis().length === 7);
    const events = ofThis().sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(events.map((event) => `${event.type}:${String(event.data.status)}`)).toEqual([
      'assistance_case.opened:RECEIVED',
      'assistance_case.updated:UNDER_REVIEW',
      'assistance_case.updated:AUTHORISED',
      'assistance_case.updated:COMPLETED',
      'claim.submitted:SUBMITTED',
      'claim.decided:APPROVED',
      'claim.paid:PAID',
    ]);
    expect(events[5]?.data).toMatchObject({ approvedTotal: 642475, previousStatus: 'UNDER_ASSESSMENT' });
    expect(events[6]?.data.payout).toMatchObject({ amount: 642475, reference: 'NABIL-TT-55120' });
    for (const event of events) expectSchema(SCHEMAS[event.type] ?? 'missing', event);
    expect(receiver.rejected).toBe(0);
  });
});
