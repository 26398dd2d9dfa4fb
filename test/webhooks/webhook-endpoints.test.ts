import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WebhookDelivery } from '../../src/modules/webhooks/entities/webhook-delivery';
import { WebhookEndpoint } from '../../src/modules/webhooks/entities/webhook-endpoint';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import type { WireJson } from '../support/http-client';
import { newPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

// An hour's window, so that the 31 writes of the rate-limit test cannot straddle a window boundary
// (which starts the count again), on a database of its own: a server on the shared one, with the
// default 60 s window, sweeps hour-long buckets away.
const { server, client } = useTestServer({
  ownDatabase: 'webhook_endpoints',
  env: { RATE_LIMIT_WEBHOOK_PER_COMPANY: '30', RATE_LIMIT_WINDOW_SECONDS: '3600' },
});
const api = webhookApi(client);
const URL_A = 'https://hooks.partner-a.example.com/pbs';

function contract(): {
  webhooks: Record<string, unknown>;
  components: { schemas: Record<string, { enum?: string[] }> };
} {
  return JSON.parse(readFileSync('generated/openapi.json', 'utf8'));
}

describe('webhook endpoints through the API', () => {
  it('the event types an endpoint may name are exactly the webhooks the contract documents (one enum)', () => {
    const document = contract();
    expect([...(document.components.schemas.WebhookEventType?.enum ?? [])].sort()).toEqual(
      Object.keys(document.webhooks).sort(),
    );
  });

  it('when a partner registers an endpoint, then it gets it with a whsec_ secret shown only in that answer; it lists, reads, changes and deletes it', async () => {
    const partner = await newPartner(server, client);
    const created = await api.create(partner, {
      url: URL_A,
      events: ['order.paid', 'payment.failed'],
      description: 'Back office',
    });
    expectStatus(created, 201);
    const endpoint = created.body.data;
    expect(endpoint).toEqual(
      expect.objectContaining({
        url: URL_A,
        events: ['order.paid', 'payment.failed'],
        description: 'Back office',
        enabled: true,
        previousSecretExpiresAt: null,
      }),
    );
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const listed = await api.list(partner);
    expectStatus(listed, 200);
    expect(listed.body.data).toEqual([expect.objectContaining({ endpointId: endpoint.endpointId })]);
    expect(JSON.stringify(listed.body)).not.toContain(endpoint.secret);
    const read = await api.get(partner, endpoint.endpointId);
    expectStatus(read, 200);
    expect(read.body.data.secret).toBeUndefined();

    const changed = await api.update(partner, endpoint.endpointId, {
      events: ['*'],
      description: null,
      enabled: false,
      url: `${URL_A}/v2`,
    });
    expectStatus(changed, 200);
    expect(changed.body.data).toEqual(
      expect.objectContaining({ events: ['*'], description: null, enabled: false, url: `${URL_A}/v2` }),
    );
    const stored = await server.orm.em.fork().findOneOrFail(WebhookEndpoint, endpoint.endpointId);
    expect(stored.secret).toBe(endpoint.secret);

    const deleted = await api.remove(partner, endpoint.endpointId);
    expectStatus(deleted, 200);
    expectStatus(await api.get(partner, endpoint.endpointId), 404);
    expect((await api.list(partner)).body.data).toEqual([]);
  });

  it('when a secret is rotated, then the new one is shown once and the old one is announced to keep signing for the overlap', async () => {
    const partner = await newPartner(server, client);
    const endpoint = (await api.create(partner, { url: URL_A, events: ['*'] })).body.data;
    const rotated = await api.rotate(partner, endpoint.endpointId);
    expectStatus(rotated, 200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(endpoint.secret);
    const overlapEnds = Date.parse(rotated.body.data.previousSecretExpiresAt);
    expect(overlapEnds - Date.now()).toBeGreaterThan(23 * 3600_000);
    const stored = await server.orm.em.fork().findOneOrFail(WebhookEndpoint, endpoint.endpointId);
    expect([stored.secret, stored.previousSecret]).toEqual([rotated.body.data.secret, endpoint.secret]);
  });

  it('a company has at most 5 endpoints: the sixth is a 409 and stores nothing', async () => {
    const partner = await newPartner(server, client);
    for (let i = 0; i < 5; i++) expectStatus(await api.create(partner, { url: `${URL_A}/${i}`, events: ['*'] }), 201);
    const sixth = await api.create(partner, { url: `${URL_A}/6`, events: ['*'] });
    expectStatus(sixth, 409);
    expect(sixth.body.message).toMatch(/at most 5/);
    expect(await server.orm.em.fork().count(WebhookEndpoint, { companyId: partner.companyId })).toBe(5);
    // Deleting one frees a place.
    const [first] = (await api.list(partner)).body.data;
    await api.remove(partner, first.endpointId);
    expectStatus(await api.create(partner, { url: `${URL_A}/7`, events: ['*'] }), 201);
  });

  it.each([
    ['no events', { url: URL_A }],
    ['an empty event list', { url: URL_A, events: [] }],
    ['an event type the contract does not document', { url: URL_A, events: ['order.shipped'] }],
    ['the same event twice', { url: URL_A, events: ['order.paid', 'order.paid'] }],
    ['no url', { events: ['*'] }],
    ['a URL that is not http(s)', { url: 'ftp://hooks.partner-a.example.com/pbs', events: ['*'] }],
    ['a relative URL', { url: '/pbs/webhooks', events: ['*'] }],
    ['a URL with a user and password', { url: 'https://user:secret@hooks.partner-a.example.com/pbs', events: ['*'] }],
    ['a URL with a space', { url: 'https://hooks.partner-a.example.com/p bs', events: ['*'] }],
    ['a description with a line break', { url: URL_A, events: ['*'], description: 'two\nlines' }],
    ['a description over 200 characters', { url: URL_A, events: ['*'], description: 'x'.repeat(201) }],
    ['an unknown field', { url: URL_A, events: ['*'], secret: 'whsec_mine' }],
  ])('registering with %s is a 400 with field errors, and stores nothing', async (_case, body) => {
    const partner = await newPartner(server, client);
    const answer = await api.create(partner, body);
    expectStatus(answer, 400);
    expect(Object.keys(answer.body.details?.fieldErrors ?? {}).length).toBeGreaterThan(0);
    expect(await server.orm.em.fork().count(WebhookEndpoint, { companyId: partner.companyId })).toBe(0);
  });

  it('a change with no field, an unknown event type or a bad URL is a 400 and changes nothing; a malformed id is a 400, an unknown one a 404', async () => {
    const partner = await newPartner(server, client);
    const endpoint = (await api.create(partner, { url: URL_A, events: ['order.paid'] })).body.data;
    for (const body of [{}, { events: ['nope'] }, { url: 'ftp://x.example.com' }, { enabled: 'yes' }, { events: [] }]) {
      expect({ body, status: (await api.update(partner, endpoint.endpointId, body)).status }).toEqual({
        body,
        status: 400,
      });
    }
    expect((await api.get(partner, endpoint.endpointId)).body.data).toEqual(
      expect.objectContaining({ url: URL_A, events: ['order.paid'], enabled: true }),
    );
    expectStatus(await api.get(partner, 'not-a-uuid'), 400);
    expectStatus(await api.get(partner, '0b0b0b0b-1c1c-4d4d-8e8e-9f9f9f9f9f9f'), 404);
  });

  it('the delivery log refuses an unknown status or event type, a malformed time, and a window that ends before it starts', async () => {
    const partner = await newPartner(server, client);
    const queries: Array<Record<string, string>> = [
      { status: 'DELIVERED' },
      { eventType: 'order.shipped' },
      { from: 'yesterday' },
      { to: '2030-12-31T23:59:60Z' },
      { endpointId: 'x' },
      { from: '2030-09-21T00:00:00Z', to: '2030-09-20T00:00:00Z' },
    ];
    for (const query of queries) {
      expect({ query, status: (await api.deliveries(partner, query)).status }).toEqual({ query, status: 400 });
    }
    const empty = await api.deliveries(partner);
    expectStatus(empty, 200);
    expect(empty.body.data).toEqual(expect.objectContaining({ content: [], totalElements: 0, page: 0, size: 20 }));
  });

  it('the delivery log sorts by createdAt, eventType or status either way (the delivery id breaks ties, so pages never overlap) and refuses any other sortBy', async () => {
    const partner = await newPartner(server, client);
    const endpointId = (await api.create(partner, { url: URL_A, events: ['*'] })).body.data.endpointId;
    // Deliveries already settled (handed to the queue and finished), so the relay leaves them alone.
    const em = server.orm.em.fork();
    const settled = [
      { type: 'order.paid', status: 'SUCCEEDED', at: '2030-09-20T08:00:00.000Z' },
      { type: 'webhook.test', status: 'FAILED', at: '2030-09-20T09:00:00.000Z' },
      { type: 'order.cancelled', status: 'SUCCEEDED', at: '2030-09-20T09:00:00.000Z' },
      { type: 'order.paid', status: 'FAILED', at: '2030-09-20T10:00:00.000Z' },
    ] as const;
    const ids: string[] = [];
    for (const line of settled) {
      const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
      await em.insert(WebhookEvent, {
        id: eventId,
        companyId: partner.companyId,
        type: line.type,
        payload: {},
        status: 'DISPATCHED',
        enqueuedAt: new Date(line.at),
        createdAt: new Date(line.at),
      });
      const delivery = em.create(WebhookDelivery, {
        eventId,
        endpointId,
        companyId: partner.companyId,
        eventType: line.type,
        status: line.status,
        enqueuedAt: new Date(line.at),
        createdAt: new Date(line.at),
      });
      ids.push(delivery.id);
    }
    await em.flush();
    const order = async (query: Record<string, string>) => {
      const response = await api.deliveries(partner, query);
      expectStatus(response, 200);
      return response.body.data.content.map((delivery: WireJson) => ids.indexOf(delivery.deliveryId));
    };
    const [, nine1, nine2] = ids;
    const tied = nine1! < nine2! ? [1, 2] : [2, 1];
    expect(await order({})).toEqual([3, ...[...tied].reverse(), 0]);
    expect(await order({ sortBy: 'createdAt', sortDir: 'asc' })).toEqual([0, ...tied, 3]);
    const byType = await order({ sortBy: 'eventType', sortDir: 'asc' });
    expect(byType.slice(0, 1)).toEqual([2]);
    expect(byType.slice(1, 3).sort()).toEqual([0, 3]);
    expect(byType[3]).toBe(1);
    expect((await order({ sortBy: 'status' })).slice(0, 2).sort()).toEqual([0, 2]);
    const onePerPage: number[] = [];
    for (let page = 0; page < 4; page++)
      onePerPage.push(...(await order({ sortBy: 'status', sortDir: 'asc', size: '1', page: String(page) })));
    expect(onePerPage).toEqual(await order({ sortBy: 'status', sortDir: 'asc' }));

    const unknown = await api.deliveries(partner, { sortBy: 'endpointId' });
    expectStatus(unknown, 400);
    expect(unknown.body).toEqual(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        details: { fieldErrors: { sortBy: expect.stringContaining('createdAt') } },
      }),
    );
    expectStatus(await api.deliveries(partner, { sortDir: 'sideways' }), 400);
  });

  it('the delivery log shows each delivery with the body it sends, exactly as the event records it (what GET /events/{eventId} answers)', async () => {
    const partner = await newPartner(server, client);
    const endpointId = (await api.create(partner, { url: URL_A, events: ['*'] })).body.data.endpointId;
    const em = server.orm.em.fork();
    const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
    const at = new Date('2030-09-20T08:00:00.000Z');
    const payload = {
      id: eventId,
      type: 'webhook.test',
      timestamp: at.toISOString(),
      data: { message: 'Ping from the delivery log test' },
    };
    await em.insert(WebhookEvent, {
      id: eventId,
      companyId: partner.companyId,
      type: 'webhook.test',
      payload,
      status: 'DISPATCHED',
      enqueuedAt: at,
      createdAt: at,
    });
    em.create(WebhookDelivery, {
      eventId,
      endpointId,
      companyId: partner.companyId,
      eventType: 'webhook.test',
      status: 'SUCCEEDED',
      enqueuedAt: at,
      createdAt: at,
    });
    await em.flush();

    const log = await api.deliveries(partner, { endpointId });
    expectStatus(log, 200);
    expect(log.body.data.content).toEqual([expect.objectContaining({ eventId, payload })]);
    const event = await client.op('getEvent', 'GET', `/api/external/v1/events/${eventId}`, undefined, {
      token: partner.token,
    });
    expectStatus(event, 200);
    expect(event.body.data.payload).toEqual(log.body.data.content[0].payload);
  });

  it('endpoint writes are rate-limited per company like other writes: over the limit a 429 with Retry-After, reads still answer', async () => {
    const partner = await newPartner(server, client);
    const endpoint = (await api.create(partner, { url: URL_A, events: ['*'] })).body.data;
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await api.update(partner, endpoint.endpointId, { description: `change ${i}` })).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(29);
    const limited = await api.update(partner, endpoint.endpointId, { description: 'one more' });
    expectStatus(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expectStatus(await api.get(partner, endpoint.endpointId), 200);
    // Another company's count is its own.
    const other = await newPartner(server, client);
    expectStatus(await api.create(other, { url: URL_A, events: ['*'] }), 201);
  });
});
