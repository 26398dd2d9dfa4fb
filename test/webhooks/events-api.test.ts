import { readFileSync } from 'node:fs';
import { expectSchema } from '../support/contract';
import { newPartner, type TestPartner } from '../support/partners';
import { SANDBOX_ENV, useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

// Background jobs on: a replay is sent by the webhook delivery workers.
const { server, client } = useTestServer({ env: SANDBOX_ENV, backgroundJobs: true });
const api = webhookApi(client);
const EVENTS = '/api/external/v1/events';
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client);
});

const listEvents = (as: TestPartner, query: Record<string, string | number> = {}) =>
  client.op('listEvents', 'GET', EVENTS, undefined, { token: as.token, query });
const getEvent = (as: TestPartner, eventId: string) =>
  client.op('getEvent', 'GET', `${EVENTS}/${eventId}`, undefined, { token: as.token });

/** A test event: what `POST /webhook-endpoints/{id}/test` announces, as any other event. */
async function testEvent(as: TestPartner): Promise<string> {
  const endpoints = (await api.list(as)).body.data as Array<{ endpointId: string }>;
  const endpointId =
    endpoints[0]?.endpointId ??
    (await api.create(as, { url: 'https://hooks.partner-a.example.com/pbs', events: ['*'] })).body.data.endpointId;
  await api.test(as, endpointId);
  const newest = (await listEvents(as, { size: 1 })).body.data.content[0];
  return newest.eventId as string;
}

describe('GET /events', () => {
  it("lists the company's events newest first, each with the payload its endpoints were sent", async () => {
    const older = await testEvent(partner);
    const newer = await testEvent(partner);
    const response = await listEvents(partner);
    expectStatus(response, 200);
    const ids = response.body.data.content.map((event: { eventId: string }) => event.eventId);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const event = response.body.data.content[ids.indexOf(newer)];
    expect(event).toMatchObject({
      eventId: newer,
      type: 'webhook.test',
      payload: { id: newer, type: 'webhook.test', data: { message: expect.any(String) } },
    });
    expect(event.payload.timestamp).toBe(event.createdAt);
  });

  it('filters by type and by a time range, and refuses a range the wrong way round with a field error', async () => {
    await testEvent(partner);
    expect((await listEvents(partner, { type: 'order.paid' })).body.data.totalElements).toBe(0);
    expect((await listEvents(partner, { type: 'webhook.test' })).body.data.totalElements).toBeGreaterThan(0);
    expect((await listEvents(partner, { createdFrom: '2099-01-01T00:00:00Z' })).body.data.totalElements).toBe(0);
    const reversed = await listEvents(partner, {
      createdFrom: '2030-10-01T00:00:00Z',
      createdTo: '2030-09-01T00:00:00Z',
    });
    expectStatus(reversed, 400);
    expect(reversed.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { createdFrom: 'must be before createdTo' } },
    });
  });

  it('sortDir=asc lists oldest first, the reverse of the default; a sortBy other than createdAt is a 400 with a field error', async () => {
    const other = await newPartner(server, client);
    const events = [await testEvent(other), await testEvent(other), await testEvent(other)];
    const ids = async (query: Record<string, string>) =>
      (await listEvents(other, query)).body.data.content.map((event: { eventId: string }) => event.eventId);
    expect(await ids({})).toEqual([...events].reverse());
    expect(await ids({ sortBy: 'createdAt', sortDir: 'asc' })).toEqual(events);
    const unknown = await listEvents(other, { sortBy: 'type' });
    expectStatus(unknown, 400);
    expect(unknown.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { sortBy: expect.any(String) } },
    });
  });

  it('answers an empty page, not an error, for a page far past the end', async () => {
    const response = await listEvents(partner, { page: '99999999999999999999' });
    expectStatus(response, 200);
    expect(response.body.data.content).toEqual([]);
  });

  it("shows one company none of another's events", async () => {
    const other = await newPartner(server, client);
    await testEvent(partner);
    expect((await listEvents(other)).body.data.totalElements).toBe(0);
  });
});

describe('the payload of an event record', () => {
  const bundled = (): {
    webhooks: Record<
      string,
      { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }
    >;
    components: { schemas: { EventRecord: { properties: { payload: PayloadSchema } } } };
  } => JSON.parse(readFileSync('generated/openapi.json', 'utf8'));
  interface PayloadSchema {
    oneOf: Array<{ $ref: string }>;
    discriminator: { propertyName: string; mapping: Record<string, string> };
  }

  it("is one of the webhooks' bodies, chosen by its type: one member per webhook of the contract", () => {
    const document = bundled();
    const bodies = Object.fromEntries(
      Object.entries(document.webhooks).map(([type, webhook]) => [
        type,
        webhook.post.requestBody.content['application/json'].schema.$ref,
      ]),
    );
    const payload = document.components.schemas.EventRecord.properties.payload;
    expect(payload.discriminator).toEqual({ propertyName: 'type', mapping: bodies });
    expect(payload.oneOf.map((member) => member.$ref).sort()).toEqual(Object.values(bodies).sort());
  });

  it("refuses a body that is not its type's: a test event's data under order.paid violates the contract", () => {
    const record = (payload: Record<string, unknown>) => ({
      eventId: 'evt_4c1f9a2e7b3d4e8a9f6c2d1e0b5a7c3f',
      type: payload.type,
      createdAt: '2030-09-20T08:52:11.000Z',
      payload: { id: 'evt_4c1f9a2e7b3d4e8a9f6c2d1e0b5a7c3f', timestamp: '2030-09-20T08:52:11.000Z', ...payload },
    });
    expect(() => expectSchema('EventRecord', record({ type: 'webhook.test', data: { message: 'hi' } }))).not.toThrow();
    expect(() => expectSchema('EventRecord', record({ type: 'order.paid', data: { message: 'hi' } }))).toThrow(
      /violates EventRecord/,
    );
  });
});

describe('GET /events/{eventId}', () => {
  it('reads one event with its payload as delivered', async () => {
    const eventId = await testEvent(partner);
    const response = await getEvent(partner, eventId);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ eventId, type: 'webhook.test', payload: { id: eventId } });
  });

  it("answers 404 for another company's event, as for an unknown one", async () => {
    const eventId = await testEvent(partner);
    const other = await newPartner(server, client);
    const stranger = await getEvent(other, eventId);
    expectStatus(stranger, 404);
    expect(stranger.body.code).toBe('NOT_FOUND');
    expectStatus(await getEvent(partner, 'evt_00000000000000000000000000000000'), 404);
  });
});

describe('POST /webhook-endpoints/{endpointId}/replay', () => {
  const receivers: WebhookReceiver[] = [];
  afterAll(async () => {
    for (const receiver of receivers) await receiver.stop();
  });

  /** A partner with a receiver registered for every event, verifying with the secret the API answered. */
  async function partnerWithReceiver() {
    const owner = await newPartner(server, client);
    const receiver = new WebhookReceiver();
    receivers.push(receiver);
    const created = await api.create(owner, { url: await receiver.start(), events: ['*'] });
    receiver.secret = created.body.data.secret;
    return { owner, receiver, endpointId: created.body.data.endpointId as string };
  }
  const replay = (as: TestPartner, endpointId: string, body: unknown) =>
    client.op('replayWebhookEndpoint', 'POST', `/api/external/v1/webhook-endpoints/${endpointId}/replay`, body, {
      token: as.token,
    });

  it('sends the events since a time to the endpoint again, with their ids and bodies, and answers how many', async () => {
    const { owner, receiver, endpointId } = await partnerWithReceiver();
    const since = new Date(Date.now() - 1000).toISOString();
    await api.test(owner, endpointId);
    await receiver.waitFor(() => receiver.verified.length === 1);
    const response = await replay(owner, endpointId, { since });
    expectStatus(response, 202);
    expect(response.body.data).toEqual({ replayed: 1 });
    await receiver.waitFor(() => receiver.verified.length === 2);
    const [first, again] = receiver.verified;
    expect(again?.id).toBe(first?.id);
    expect(again?.data).toEqual(first?.data);
  });

  it('replays only the types asked for, and nothing before since', async () => {
    const { owner, endpointId } = await partnerWithReceiver();
    await api.test(owner, endpointId);
    expect(
      (await replay(owner, endpointId, { since: new Date(Date.now() - 60_000).toISOString(), types: ['order.paid'] }))
        .body.data,
    ).toEqual({ replayed: 0 });
    expect((await replay(owner, endpointId, { since: new Date(Date.now() + 60_000).toISOString() })).body.data).toEqual(
      { replayed: 0 },
    );
  });

  it("refuses a disabled endpoint with 409 and another company's with 404", async () => {
    const { owner, endpointId } = await partnerWithReceiver();
    await api.update(owner, endpointId, { enabled: false });
    const disabled = await replay(owner, endpointId, { since: new Date(Date.now() - 60_000).toISOString() });
    expectStatus(disabled, 409);
    const stranger = await replay(partner, endpointId, { since: new Date(Date.now() - 60_000).toISOString() });
    expectStatus(stranger, 404);
  });
});
