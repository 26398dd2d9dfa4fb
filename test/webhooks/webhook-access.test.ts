import { CompanyType } from '../../src/modules/partners/entities/company';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { WebhookDelivery } from '../../src/modules/webhooks/entities/webhook-delivery';
import { WebhookEndpoint } from '../../src/modules/webhooks/entities/webhook-endpoint';
import type { ApiResponse } from '../support/http-client';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { lowTrek } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * Company A's webhook endpoints and deliveries are A's alone. Agency L is listed on A's order (it
 * reads that order) and S is a stranger: for both, every endpoint and delivery operation on A's
 * records is a 404 that changes nothing, their lists never show A's, and the events of A's order
 * go to A's endpoint only, never to L's.
 */
// Background jobs on: which company's endpoint an event reaches is the webhook delivery workers' work.
const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' }, backgroundJobs: true });
const api = webhookApi(client);
const receivers = { owner: new WebhookReceiver(), listed: new WebhookReceiver(), stranger: new WebhookReceiver() };
let owner: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;
let endpointId: string;
let deliveryId: string;
let orderRef: string;

type Call = (caller: TestPartner) => Promise<ApiResponse>;
const operations = (): Array<[string, number, Call]> => [
  ['getWebhookEndpoint', 200, (c) => api.get(c, endpointId)],
  [
    'updateWebhookEndpoint',
    200,
    (c) => api.update(c, endpointId, { url: 'https://attacker.example.com/steal', events: ['*'] }),
  ],
  ['rotateWebhookEndpointSecret', 200, (c) => api.rotate(c, endpointId)],
  ['testWebhookEndpoint', 202, (c) => api.test(c, endpointId)],
  ['retryWebhookDelivery', 202, (c) => api.retry(c, deliveryId)],
  ['deleteWebhookEndpoint', 200, (c) => api.remove(c, endpointId)],
];

async function register(partner: TestPartner, receiver: WebhookReceiver): Promise<string> {
  const created = await api.create(partner, { url: await receiver.start(), events: ['*'] });
  receiver.secret = created.body.data.secret;
  return created.body.data.endpointId;
}

/** What another company's call could have changed: A's endpoint row and A's deliveries. */
async function ownerState() {
  const em = server.orm.em.fork();
  const endpoint = await em.findOneOrFail(WebhookEndpoint, endpointId);
  const deliveries = await em.find(WebhookDelivery, { companyId: owner.companyId }, { orderBy: { id: 'asc' } });
  return {
    endpoint: [
      endpoint.url,
      endpoint.events,
      endpoint.enabled,
      endpoint.secret,
      endpoint.previousSecret ?? null,
      endpoint.description ?? null,
    ],
    deliveries: deliveries.map((d) => [d.id, d.status, d.attempts, d.enqueuedAt?.toISOString() ?? null]),
  };
}

beforeAll(async () => {
  owner = await newPartner(server, client, { name: 'Owner Cover Sales', type: CompanyType.SalesCompany });
  listed = await newPartner(server, client, { name: 'Listed Agency Treks', type: CompanyType.TravelAgency });
  stranger = await newPartner(server, client, { name: 'Stranger Treks', type: CompanyType.TravelAgency });
  endpointId = await register(owner, receivers.owner);
  await register(listed, receivers.listed);
  await register(stranger, receivers.stranger);
  const touristId = await newTraveller(server, owner.companyId);
  const placed = await client.op(
    'createOrders',
    'POST',
    ORDERS,
    lowTrek(touristId, { travelCompanyIds: [listed.companyId] }),
    { token: owner.token },
  );
  orderRef = placed.body.data.orderRef;
  // An event of the order L is listed on: it is A's to receive.
  await cancelFromCommandLine(server.orm.em.fork(), orderRef, 'test', server.payments);
  await receivers.owner.waitFor(() => receivers.owner.unique('order.cancelled').length === 1);
  const log = await api.deliveries(owner, { endpointId });
  deliveryId = log.body.data.content[0].deliveryId;
});

afterAll(async () => {
  for (const receiver of Object.values(receivers)) await receiver.stop();
});

describe('who sees and changes webhook endpoints and deliveries', () => {
  it('the events of an order go to the placing company only: the agency listed on it receives nothing', async () => {
    expectStatus(await client.op('getOrder', 'GET', `${ORDERS}/${orderRef}`, undefined, { token: listed.token }), 200);
    // Give a wrongly routed delivery time to arrive: the owner's arrived long ago.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receivers.listed.answered + receivers.stranger.answered).toBe(0);
    for (const other of [listed, stranger]) expect((await api.deliveries(other)).body.data.totalElements).toBe(0);
  });

  it.each([
    ['the listed agency', () => listed],
    ['a stranger', () => stranger],
  ])(
    "%s gets 404 on every operation on the owner's endpoint and delivery, never sees them listed, and changes nothing",
    async (_who, caller) => {
      const before = await ownerState();
      for (const [operationId, , call] of operations()) {
        const answer = await call(caller());
        expect({ operationId, status: answer.status }).toEqual({ operationId, status: 404 });
        expect(JSON.stringify(answer.body)).not.toContain(receivers.owner.secret);
      }
      const endpoints = await api.list(caller());
      expect(endpoints.body.data.map((e: { endpointId: string }) => e.endpointId)).not.toContain(endpointId);
      const byEndpoint = await api.deliveries(caller(), { endpointId });
      expectStatus(byEndpoint, 200);
      expect(byEndpoint.body.data).toEqual(expect.objectContaining({ content: [], totalElements: 0 }));
      const all = await api.deliveries(caller());
      expect(all.body.data.content.map((d: { deliveryId: string }) => d.deliveryId)).not.toContain(deliveryId);
      expect(await ownerState()).toEqual(before);
    },
  );

  it('the owner may do every one of those operations', async () => {
    expect((await api.list(owner)).body.data.map((e: { endpointId: string }) => e.endpointId)).toEqual([endpointId]);
    expect(
      (await api.deliveries(owner, { endpointId })).body.data.content.map((d: { deliveryId: string }) => d.deliveryId),
    ).toContain(deliveryId);
    for (const [operationId, status, call] of operations()) {
      const answer = await call(owner);
      expect({ operationId, status: answer.status }).toEqual({ operationId, status });
    }
  });
});
