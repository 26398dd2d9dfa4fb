import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { declareDisruption, endDisruption } from '../../src/modules/catalogue';
import { WebhookReceiver } from '../support/webhook-receiver';
import { expectSchema } from '../support/contract';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { webhookApi } from './webhook-api';

/**
 * Weather disruptions heard by every partner (decision record 0102): the operator's declaration
 * and its early end reach each partner company's endpoint, verified with the official
 * `standardwebhooks` library, in their documented shape; a CI can send itself a sample of each.
 */
const { server, client } = useTestServer({ backgroundJobs: true });
const everything = new WebhookReceiver();
const onlyDisruptions = new WebhookReceiver();
let first: TestPartner;
let second: TestPartner;

async function listen(partner: TestPartner, receiver: WebhookReceiver, events: string[]): Promise<void> {
  const created = await webhookApi(client).create(partner, { url: await receiver.start(), events });
  if (created.status !== 201) throw new Error(`endpoint not registered: ${JSON.stringify(created.body)}`);
  receiver.secret = created.body.data.secret;
}

beforeAll(async () => {
  first = await newPartner(server, client, { name: 'Lukla Waiting Room Treks' });
  second = await newPartner(server, client, { name: 'Namche Porters Co-operative' });
  await listen(first, everything, ['*']);
  await listen(second, onlyDisruptions, ['disruption.declared', 'disruption.ended']);
});

afterAll(async () => {
  await everything.stop();
  await onlyDisruptions.stop();
});

describe('disruption.declared and disruption.ended', () => {
  it('when the operator declares a Lukla disruption and ends it early, then every partner company receives both, signed, in their documented shape', async () => {
    const today = kathmanduToday();
    const declared = await declareDisruption(
      server.orm.em,
      { area: 'LUKLA', startsOn: today, endsOn: addDays(today, 4), maxDays: 5, note: 'Lukla closed by fog' },
      'operator-cli:test',
    );
    await endDisruption(server.orm.em, declared.disruptionId, addDays(today, 2), 'operator-cli:test');

    const about = (receiver: WebhookReceiver) =>
      receiver.unique().filter((event) => event.data.disruptionId === declared.disruptionId);
    await everything.waitFor(() => about(everything).length === 2);
    await onlyDisruptions.waitFor(() => about(onlyDisruptions).length === 2);
    for (const receiver of [everything, onlyDisruptions]) {
      const events = about(receiver).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
      expect(events.map((event) => `${event.type}:${String(event.data.status)}`)).toEqual([
        'disruption.declared:ACTIVE',
        'disruption.ended:ENDED',
      ]);
      expectSchema('DisruptionDeclaredEvent', events[0]);
      expectSchema('DisruptionEndedEvent', events[1]);
      expect(events[0]?.data).toMatchObject({ area: 'LUKLA', maxDays: 5, endedOn: null, lastDay: addDays(today, 4) });
      expect(events[1]?.data).toMatchObject({ endedOn: addDays(today, 2), lastDay: addDays(today, 2) });
      expect(events[0]).not.toHaveProperty('sandbox');
      expect(receiver.rejected).toBe(0);
    }
  });

  it('when a partner sends itself disruption.declared through POST /sandbox/events, then it arrives signed, marked sandbox, with the contract sample', async () => {
    const sent = await client.op(
      'sendSandboxEvent',
      'POST',
      '/api/external/v1/sandbox/events',
      { type: 'disruption.declared' },
      { token: first.token },
    );
    expectStatus(sent, 202);
    const eventId = sent.body.data.eventId as string;
    await everything.waitFor(() => everything.unique().some((event) => event.id === eventId));
    const event = everything.unique().find((received) => received.id === eventId);
    expectSchema('DisruptionDeclaredEvent', event);
    expect(event).toMatchObject({ type: 'disruption.declared', sandbox: true, data: { area: 'LUKLA' } });
  });
});
