import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { webhookApi } from './webhook-api';

const { server, client } = useTestServer();
const api = webhookApi(client);
const EVENTS = '/api/external/v1/events';
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client);
});

const listEvents = (as: TestPartner, query: Record<string, string | number> = {}) => client.op('listEvents', 'GET', EVENTS, undefined, { token: as.token, query });
const getEvent = (as: TestPartner, eventId: string) => client.op('getEvent', 'GET', `${EVENTS}/${eventId}`, undefined, { token: as.token });

/** A test event: what `POST /webhook-endpoints/{id}/test` announces, as any other event. */
async function testEvent(as: TestPartner): Promise<string> {
  const endpoints = (await api.list(as)).body.data as Array<{ endpointId: string }>;
  const endpointId = endpoints[0]?.endpointId ?? (await api.create(as, { url: 'https://hooks.partner-a.example.com/pbs', events: ['*'] })).body.data.endpointId;
  await api.test(as, endpointId);
  const newest = (await listEvents(as, { size: 1 })).body.data.content[0];
  return newest.eventId as string;
}

describe('GET /events', () => {
  it('lists the company\'s events newest first, each with the payload its endpoints were sent', async () => {
    const older = await testEvent(partner);
    const newer = await testEvent(partner);
    const response = await listEvents(partner);
    expect(response.status).toBe(200);
    const ids = response.body.data.content.map((event: { eventId: string }) => event.eventId);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const event = response.body.data.content[ids.indexOf(newer)];
    expect(event).toMatchObject({ eventId: newer, type: 'webhook.test', payload: { id: newer, type: 'webhook.test', data: { message: expect.any(String) } } });
    expect(event.payload.timestamp).toBe(event.createdAt);
  });

  it('filters by type and by a time range, and refuses a range the wrong way round with a field error', async () => {
    await testEvent(partner);
    expect((await listEvents(partner, { type: 'order.paid' })).body.data.totalElements).toBe(0);
    expect((await listEvents(partner, { type: 'webhook.test' })).body.data.totalElements).toBeGreaterThan(0);
    expect((await listEvents(partner, { createdFrom: '2099-01-01T00:00:00Z' })).body.data.totalElements).toBe(0);
    const reversed = await listEvents(partner, { createdFrom: '2030-10-01T00:00:00Z', createdTo: '2030-09-01T00:00:00Z' });
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { fieldErrors: { createdFrom: 'must be before createdTo' } } });
  });

  it('shows one company none of another\'s events', async () => {
    const other = await newPartner(server, client);
    await testEvent(partner);
    expect((await listEvents(other)).body.data.totalElements).toBe(0);
  });
});

describe('GET /events/{eventId}', () => {
  it('reads one event with its payload as delivered', async () => {
    const eventId = await testEvent(partner);
    const response = await getEvent(partner, eventId);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ eventId, type: 'webhook.test', payload: { id: eventId } });
  });

  it("answers 404 for another company's event, as for an unknown one", async () => {
    const eventId = await testEvent(partner);
    const other = await newPartner(server, client);
    const stranger = await getEvent(other, eventId);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe('NOT_FOUND');
    expect((await getEvent(partner, 'evt_00000000000000000000000000000000')).status).toBe(404);
  });
});
