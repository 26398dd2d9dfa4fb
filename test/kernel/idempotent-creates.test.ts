import { randomUUID } from 'node:crypto';
import { CTGS } from '../support/catalogue-fixtures';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import {
  DOCUMENTS_PATH,
  FILES,
  TRAVELLERS_PATH,
  travellerInput,
  uploadForm,
  uploadTravellerDocuments,
} from '../support/documents';
import { Document } from '../../src/modules/documents/entities/document';
import { ENDPOINTS } from '../webhooks/webhook-api';
import { Order } from '../../src/modules/orders/entities/order';
import { Traveller } from '../../src/modules/travellers/entities/traveller';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let partner: TestPartner;
let touristId: string;

beforeAll(async () => {
  partner = await newPartner(server, client);
  touristId = await newTraveller(server, partner.companyId);
});

const lowTrek = (overrides: Record<string, unknown> = {}) => ({
  touristId,
  ctgId: CTGS.standard3000,
  customRouteName: 'Kathmandu valley rim walk',
  departureDate: departure,
  ...overrides,
});
const createOrders = (body: unknown, key?: string, as: TestPartner = partner) =>
  client.op('createOrders', 'POST', ORDERS, body, {
    token: as.token,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const ordersOf = (companyId: string) => server.orm.em.fork().count(Order, { company: companyId });

describe('creates with an Idempotency-Key', () => {
  it('answers a retry of POST /orders with the same key and body with the first answer, marked Idempotency-Replayed, and creates one order', async () => {
    const key = randomUUID();
    const before = await ordersOf(partner.companyId);
    const first = await createOrders(lowTrek(), key);
    const retry = await createOrders(lowTrek(), key);
    expectStatus(first, 201);
    expectStatus(retry, 201);
    expect(retry.body).toEqual(first.body);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(await ordersOf(partner.companyId)).toBe(before + 1);
  });

  it('treats the same body with its fields in another order as the same request', async () => {
    const key = randomUUID();
    const body = lowTrek();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await createOrders(body, key);
    const retry = await createOrders(reordered, key);
    expect(retry.body.data.orderRef).toBe(first.body.data.orderRef);
  });

  it('rejects the same key with another body with a 409, creating nothing', async () => {
    const key = randomUUID();
    await createOrders(lowTrek(), key);
    const before = await ordersOf(partner.companyId);
    const other = await createOrders(lowTrek({ customRouteName: 'Nagarkot sunrise hike' }), key);
    expectStatus(other, 409);
    expect(other.body.message).toBe(
      'This Idempotency-Key was already used for a different request; use a new key for a new request',
    );
    expect(await ordersOf(partner.companyId)).toBe(before);
  });

  it('creates one group for the same key, and the group answer is replayed whole', async () => {
    const key = randomUUID();
    const first = await createOrders([lowTrek(), lowTrek()], key);
    const retry = await createOrders([lowTrek(), lowTrek()], key);
    expectStatus(first, 201);
    expect(retry.body.data.groupRef).toBe(first.body.data.groupRef);
    expect(retry.body.data.orders).toHaveLength(2);
  });

  it('creates one order for ten concurrent requests with one key, each answered with it', async () => {
    const key = randomUUID();
    const before = await ordersOf(partner.companyId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => createOrders(lowTrek(), key)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.data.orderRef)).size).toBe(1);
    expect(await ordersOf(partner.companyId)).toBe(before + 1);
  });

  it('keeps nothing of a refused create: a retry with the same key after a 404 is a new try', async () => {
    const key = randomUUID();
    const refused = await createOrders(lowTrek({ touristId: randomUUID() }), key);
    expectStatus(refused, 404);
    const corrected = await createOrders(lowTrek(), key);
    expectStatus(corrected, 201);
  });

  it('scopes a key to the company: another partner with the same key creates its own order', async () => {
    const other = await newPartner(server, client);
    const otherTourist = await newTraveller(server, other.companyId);
    const key = randomUUID();
    const mine = await createOrders(lowTrek(), key);
    const theirs = await createOrders(lowTrek({ touristId: otherTourist }), key, other);
    expectStatus(theirs, 201);
    expect(theirs.body.data.orderRef).not.toBe(mine.body.data.orderRef);
  });

  it('refuses a key that is not a UUID with a 400 before creating anything', async () => {
    const before = await ordersOf(partner.companyId);
    const response = await createOrders(lowTrek(), 'retry-1');
    expectStatus(response, 400);
    expect(await ordersOf(partner.companyId)).toBe(before);
  });

  it('answers a retry of POST /travellers with the same key with the same travellers, registered once', async () => {
    const documents = await uploadTravellerDocuments(client, partner.token);
    const body = [travellerInput(documents, { name: 'Anna Keller' })];
    const key = randomUUID();
    const register = () =>
      client.op('registerTravellers', 'POST', TRAVELLERS_PATH, body, {
        token: partner.token,
        headers: { 'idempotency-key': key },
      });
    const first = await register();
    const retry = await register();
    expectStatus(first, 201);
    expect(retry.body).toEqual(first.body);
    expect([first.headers.get('idempotency-replayed'), retry.headers.get('idempotency-replayed')]).toEqual([
      null,
      'true',
    ]);
    expect(await server.orm.em.fork().count(Traveller, { company: partner.companyId, name: 'Anna Keller' })).toBe(1);
  });

  it('answers a retry of POST /webhook-endpoints with the same key with the same endpoint and secret, registered once', async () => {
    const owner = await newPartner(server, client);
    const key = randomUUID();
    const register = () =>
      client.op(
        'createWebhookEndpoint',
        'POST',
        ENDPOINTS,
        { url: 'https://hooks.partner-a.example.com/pbs', events: ['order.paid'] },
        { token: owner.token, headers: { 'idempotency-key': key } },
      );
    const first = await register();
    const retry = await register();
    expectStatus(first, 201);
    expect(retry.body).toEqual(first.body);
    expect([first.headers.get('idempotency-replayed'), retry.headers.get('idempotency-replayed')]).toEqual([
      null,
      'true',
    ]);
    const listed = await client.op('listWebhookEndpoints', 'GET', ENDPOINTS, undefined, { token: owner.token });
    expect(listed.body.data).toHaveLength(1);
  });

  it('answers a retry of POST /documents with the same key and file with the first document, one draft stored', async () => {
    const owner = await newPartner(server, client);
    const key = randomUUID();
    const upload = (bytes: Buffer) =>
      client.op('uploadDocument', 'POST', DOCUMENTS_PATH, undefined, {
        token: owner.token,
        raw: uploadForm('AVATAR', bytes, { fileName: 'avatar.png' }),
        headers: { 'idempotency-key': key },
      });
    const first = await upload(FILES.png);
    const retry = await upload(FILES.png);
    expectStatus(first, 201);
    expectStatus(retry, 201);
    expect(retry.body.data.documentId).toBe(first.body.data.documentId);
    expect([first.headers.get('idempotency-replayed'), retry.headers.get('idempotency-replayed')]).toEqual([
      null,
      'true',
    ]);
    expect(await server.orm.em.fork().count(Document, { company: owner.companyId })).toBe(1);

    const other = await upload(FILES.jpeg);
    expectStatus(other, 409);
    expect(await server.orm.em.fork().count(Document, { company: owner.companyId })).toBe(1);
  });

  it('refuses an upload whose Idempotency-Key is empty or not a UUID with a 400, storing nothing', async () => {
    const owner = await newPartner(server, client);
    for (const key of ['', 'retry-1']) {
      const response = await client.op('uploadDocument', 'POST', DOCUMENTS_PATH, undefined, {
        token: owner.token,
        raw: uploadForm('AVATAR', FILES.png),
        headers: { 'idempotency-key': key },
      });
      expectStatus(response, 400);
      expect(response.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fieldErrors: { 'Idempotency-Key': 'must be a UUID' } },
      });
    }
    expect(await server.orm.em.fork().count(Document, { company: owner.companyId })).toBe(0);
  });
});
