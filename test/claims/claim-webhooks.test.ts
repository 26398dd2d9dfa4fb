import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from '../webhooks/webhook-api';
import { paidOrder } from '../support/assistance-fixtures';
import { answerClaim, coverAround, decideClaim, fileClaim, withdrawClaim } from '../support/claim-fixtures';
import { expectSchema } from '../support/contract';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';

/**
 * A whole claim through the sandbox claims desk, as a partner's CI runs it: every claim webhook
 * reaches the placing company's endpoint and verifies with the official `standardwebhooks`
 * library, in its documented shape, in the order of the moves.
 */
const { server, client } = useTestServer({ backgroundJobs: true });
const receiver = new WebhookReceiver();
let placing: TestPartner;

beforeAll(async () => {
  placing = await newPartner(server, client, { name: 'Claim Webhook Treks Pvt. Ltd.' });
  const created = await webhookApi(client).create(placing, { url: await receiver.start(), events: ['*'] });
  if (created.status !== 201) throw new Error(`endpoint not registered: ${JSON.stringify(created.body)}`);
  receiver.secret = created.body.data.secret;
});

afterAll(() => receiver.stop());

const SCHEMAS: Record<string, string> = {
  'claim.submitted': 'ClaimSubmittedEvent',
  'claim.information_requested': 'ClaimInformationRequestedEvent',
  'claim.decided': 'ClaimDecidedEvent',
  'claim.paid': 'ClaimPaidEvent',
  'claim.withdrawn': 'ClaimWithdrawnEvent',
};

describe('a claim from filing to payout through the sandbox desk', () => {
  it('filed, asked for information, answered, approved and paid: claim.submitted, .information_requested, .decided and .paid arrive signed, in order; a withdrawn one sends claim.withdrawn', async () => {
    const order = await paidOrder(server, client, placing);
    await coverAround(server, order.orderId);
    const filed = await fileClaim(client, placing, order.orderRef);
    expectStatus(filed, 201);
    const { claimRef } = filed.body.data;
    expectStatus(
      await decideClaim(client, placing, claimRef, { decision: 'INFORMATION_REQUESTED', note: 'The invoice, please' }),
      200,
    );
    expectStatus(await answerClaim(client, placing, claimRef, { note: 'Sent by post' }), 200);
    expectStatus(await decideClaim(client, placing, claimRef, { decision: 'APPROVED' }), 200);
    expectStatus(await decideClaim(client, placing, claimRef, { decision: 'PAID' }), 200);
    const other = (await fileClaim(client, placing, order.orderRef)).body.data.claimRef;
    expectStatus(await withdrawClaim(client, placing, other, 'Filed twice'), 200);

    const ofClaim = (ref: string) => receiver.unique().filter((event) => event.data.claimRef === ref);
    await receiver.waitFor(() => ofClaim(claimRef).length === 4 && ofClaim(other).length === 2);
    const events = ofClaim(claimRef).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    expect(events.map((event) => `${event.type}:${String(event.data.status)}`)).toEqual([
      'claim.submitted:SUBMITTED',
      'claim.information_requested:INFORMATION_REQUESTED',
      'claim.decided:APPROVED',
      'claim.paid:PAID',
    ]);
    expect(events[2]?.data).toMatchObject({ approvedTotal: 51070, previousStatus: 'UNDER_ASSESSMENT' });
    expect(events[3]?.data.payout).toMatchObject({ amount: 51070, currency: 'NPR', method: 'BANK_TRANSFER' });
    expect(
      ofClaim(other)
        .map((event) => event.type)
        .sort(),
    ).toEqual(['claim.submitted', 'claim.withdrawn']);
    for (const event of [...events, ...ofClaim(other)]) expectSchema(SCHEMAS[event.type] ?? 'missing', event);
    expect(receiver.rejected).toBe(0);
  });
});
