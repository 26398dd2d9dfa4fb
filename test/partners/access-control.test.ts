import { createHmac, randomUUID } from 'node:crypto';
import { AccessToken } from '../../src/modules/auth/entities/access-token';
import { Company } from '../../src/modules/partners/entities/company';
import { Credential } from '../../src/modules/auth/entities/credential';
import { Document as DocumentEntity } from '../../src/modules/documents/entities/document';
import { OrderGroup } from '../../src/modules/orders/entities/order-group';
import { Traveller } from '../../src/modules/travellers/entities/traveller';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import type { RunningServer } from '../../src/server';
import { expectContract } from '../support/contract';
import { FILES, uploadedDocumentId } from '../support/documents';
import type { ApiResponse, WireJson } from '../support/http-client';
import { CTGS } from '../support/catalogue-fixtures';
import { departure, everestQuote, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { CALLBACK, ledgerOf, pay, placeGroup, placeOrder, type PlacedOrder } from '../support/payment-fixtures';
import { newCode, newSalesCompany } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

/**
 * Authentication and the 403/404 of every operation that takes an identifier: a second company's token
 * learns nothing about the first company's records and changes none of them; every 401 cause,
 * for every authenticated operation of the document; a forged gateway callback changes nothing.
 */
const { server, client } = useTestServer();
let owner: TestPartner;
let intruder: TestPartner;
let order: PlacedOrder;
let paymentRef: string;
let group: { groupRef: string; orders: PlacedOrder[] };
let touristId: string;
let documentId: string;
let quoteId: string;
let groupId: string;
let promoCode: string;
/** Values only the owner's records hold: none may appear in an answer to the intruder. */
let ownerSecrets: string[];

beforeAll(async () => {
  owner = await newPartner(server, client, { name: 'Owner Himalayan Treks' });
  intruder = await newPartner(server, client, { name: 'Intruder Treks' });
  order = await placeOrder(server, client, owner);
  paymentRef = (await pay(client, owner, order.orderRef, { gateway: 'card_gateway' })).body.data.paymentRef;
  group = await placeGroup(server, client, owner, 2);
  touristId = await newTraveller(server, owner.companyId, {
    name: 'Ownerly Secretname',
    email: 'ownerly.secret@example.com',
  });
  documentId = await uploadedDocumentId(client, owner.token, 'PASSPORT', FILES.png);
  quoteId = (await everestQuote(client, owner)).quoteId;
  groupId = (await server.orm.em.fork().findOneOrFail(OrderGroup, { groupRef: group.groupRef })).id;
  promoCode = await newCode(server, await newSalesCompany(server));
  const traveller = await server.orm.em.fork().findOneOrFail(Traveller, touristId);
  ownerSecrets = [
    touristId,
    documentId,
    quoteId,
    owner.companyId,
    owner.companyName,
    owner.clientId,
    traveller.name,
    traveller.email,
    traveller.idNumber,
    order.orderId,
    order.orderNumber,
    paymentRef,
    ...group.orders.flatMap((o) => [o.orderId, o.orderNumber, o.orderRef]),
    groupId,
  ];
  // A fixture that came back empty would make every "learns nothing" check pass vacuously.
  if (!ownerSecrets.every((secret) => typeof secret === 'string' && secret.length > 0))
    throw new Error('an owner fixture value is empty');
});

/** The answer carries none of the owner's values, apart from the one identifier the intruder sent. */
function expectNothingLearned(response: ApiResponse, sent: string): void {
  const text = JSON.stringify(response.body);
  for (const secret of ownerSecrets.filter((s) => s !== sent)) expect(text).not.toContain(secret);
}

/** Statuses the contract documents for an operation, among 403 and 404. */
function refusalsOf(operationId: string): number[] {
  const document = loadSpecDocument() as WireJson;
  for (const item of Object.values<WireJson>(document.paths)) {
    for (const operation of Object.values<WireJson>(item)) {
      if (operation?.operationId === operationId) return [403, 404].filter((s) => operation.responses[String(s)]);
    }
  }
  throw new Error(`no operation ${operationId}`);
}

describe("a second company's token on the first company's identifiers", () => {
  const orderIdentifiers = () => [order.orderRef, order.orderNumber, order.orderId, paymentRef];
  const byOrder: Array<[string, string, (id: string) => string, unknown]> = [
    ['getOrder', 'GET', (id) => `${ORDERS}/${encodeURIComponent(id)}`, undefined],
    ['getPaymentStatus', 'GET', (id) => `${ORDERS}/${encodeURIComponent(id)}/payment-status`, undefined],
    ['payOrder', 'POST', (id) => `${ORDERS}/${encodeURIComponent(id)}/pay`, { gateway: 'card_gateway' }],
    [
      'previewOrderPromo',
      'POST',
      (id) => `${ORDERS}/${encodeURIComponent(id)}/promo/preview`,
      { promoCode: 'SUMMIT10' },
    ],
    ['applyOrderPromo', 'POST', (id) => `${ORDERS}/${encodeURIComponent(id)}/promo`, { promoCode: 'SUMMIT10' }],
    ['removeOrderPromo', 'DELETE', (id) => `${ORDERS}/${encodeURIComponent(id)}/promo`, undefined],
    ['updateOrder', 'PATCH', (id) => `${ORDERS}/${encodeURIComponent(id)}`, { departureDate: '2099-01-01' }],
  ];
  const byGroup: Array<[string, string, (id: string) => string, unknown]> = [
    ['payGroup', 'POST', (id) => `${ORDERS}/groups/${id}/pay`, { gateway: 'wallet_gateway' }],
    ['previewGroupPromo', 'POST', (id) => `${ORDERS}/groups/${id}/promo/preview`, { promoCode: 'SUMMIT10' }],
    ['applyGroupPromo', 'POST', (id) => `${ORDERS}/groups/${id}/promo`, { promoCode: 'SUMMIT10' }],
    ['removeGroupPromo', 'DELETE', (id) => `${ORDERS}/groups/${id}/promo`, undefined],
  ];

  it.each(byOrder)(
    '%s answers 403 or 404 as documented, for every form of the order identifier, and reveals nothing',
    async (operationId, method, path, body) => {
      for (const identifier of orderIdentifiers()) {
        const response = await client.op(operationId, method, path(identifier), body, {
          token: intruder.token,
          headers: { 'idempotency-key': randomUUID() },
        });
        expect(refusalsOf(operationId)).toContain(response.status);
        expectNothingLearned(response, identifier);
      }
    },
  );

  it.each(byGroup)(
    '%s answers 403 or 404 as documented on the group and reveals nothing',
    async (operationId, method, path, body) => {
      const response = await client.op(operationId, method, path(group.groupRef), body, {
        token: intruder.token,
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(refusalsOf(operationId)).toContain(response.status);
      expectNothingLearned(response, group.groupRef);
    },
  );

  it("and the owner's records are as they were: only the owner's own payment attempt, no promo on the order, nothing on the group", async () => {
    const ledger = await ledgerOf(server, order.orderId);
    expect(ledger.orderStatus).toBe('PENDING');
    expect(ledger.attempts.map((a) => a.paymentRef)).toEqual([paymentRef]);
    const own = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, { token: owner.token });
    expect(own.body.data.promoCodes).toMatchObject({ companyPromoCode: null, agentPromoCode: null });
    for (const member of group.orders) {
      expect((await ledgerOf(server, member.orderId)).attempts).toEqual([]);
    }
  });

  it("createOrders with the owner's traveller, quote or order group is a 404 that names nothing of theirs", async () => {
    const intruderTourist = await newTraveller(server, intruder.companyId);
    const bodies = [
      { touristId, ctgId: CTGS.standard3000, customRouteName: 'Rim walk', departureDate: departure },
      {
        touristId: intruderTourist,
        quoteId,
        ctgId: CTGS.standard3000,
        customRouteName: 'Rim walk',
        departureDate: departure,
      },
      {
        touristId: intruderTourist,
        orderGroupId: groupId,
        ctgId: CTGS.standard3000,
        customRouteName: 'Rim walk',
        departureDate: departure,
      },
    ];
    for (const [body, sent] of [
      [bodies[0], touristId],
      [bodies[1], quoteId],
      [bodies[2], groupId],
    ] as const) {
      const response = await client.op('createOrders', 'POST', ORDERS, body, { token: intruder.token });
      expect({ sent, status: response.status }).toEqual({ sent, status: 404 });
      expectNothingLearned(response, sent);
    }
  });

  it("registerTravellers with the owner's uploaded document is a 404 and the document stays unattached", async () => {
    const response = await client.op(
      'registerTravellers',
      'POST',
      '/api/external/v1/travellers',
      [
        {
          name: 'Intruder Person',
          email: 'intruder@example.com',
          dateOfBirth: '1990-01-01',
          nationality: 'Germany',
          countryOfResidence: 'Germany',
          idType: 'PASSPORT',
          idNumber: 'X1234567',
          gender: 'MALE',
          phone: '+49 30 1',
          emergencyContactName: 'A',
          emergencyContactPhone: '+49 30 2',
          emergencyContactEmail: 'a@example.com',
          emergencyContactRelation: 'Friend',
          avatarDocumentId: documentId,
          passportDocumentId: documentId,
          signatureDocumentId: documentId,
        },
      ],
      { token: intruder.token },
    );
    expectStatus(response, 404);
    expectNothingLearned(response, documentId);
    const document = await server.orm.em.fork().findOneOrFail(DocumentEntity, documentId);
    expect(document.traveller ?? null).toBeNull();
  });

  it("listTravellers never lists the owner's travellers, whatever the search", async () => {
    for (const search of ['Ownerly', 'ownerly.secret@example.com', '']) {
      const response = await client.op('listTravellers', 'GET', '/api/external/v1/travellers', undefined, {
        token: intruder.token,
        query: { search, size: 100 },
      });
      expectStatus(response, 200);
      expectNothingLearned(response, '');
    }
  });

  it("a promo code applied by the intruder to its own order does not reach the owner's order", async () => {
    const own = await placeOrder(server, client, intruder);
    const response = await client.op(
      'applyOrderPromo',
      'POST',
      `${ORDERS}/${own.orderRef}/promo`,
      { promoCode },
      { token: intruder.token },
    );
    expectStatus(response, 200);
    const owners = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, { token: owner.token });
    expect(owners.body.data.promoCodes.companyPromoCode).toBeNull();
  });
});

describe('every 401 cause on every authenticated operation', () => {
  type Cause = { name: string; authorization: () => Promise<string | undefined> };
  /** A partner whose token is then spoiled one way; each cause gets its own company. */
  async function spoiled(
    spoil: (em: ReturnType<RunningServer['orm']['em']['fork']>, partner: TestPartner) => Promise<void>,
  ): Promise<string> {
    const partner = await newPartner(server, client);
    const em = server.orm.em.fork();
    await spoil(em, partner);
    return `Bearer ${partner.token}`;
  }
  const credentialOf = (em: WireJson, partner: TestPartner) =>
    em.findOneOrFail(Credential, { clientId: partner.clientId });
  const causes: Cause[] = [
    { name: 'the Authorization header is missing', authorization: async () => undefined },
    {
      name: 'the header is not a Bearer token',
      authorization: async () => `Basic ${Buffer.from(`${owner.clientId}:${owner.clientSecret}`).toString('base64')}`,
    },
    { name: 'the token is unknown', authorization: async () => `Bearer ${randomUUID()}` },
    {
      name: 'the token has expired',
      authorization: () =>
        spoiled(async (em, partner) => {
          await em.nativeUpdate(
            AccessToken,
            { credential: await credentialOf(em, partner) },
            { expiresAt: new Date(Date.now() - 1000) },
          );
        }),
    },
    {
      name: 'the token is revoked',
      authorization: () =>
        spoiled(async (em, partner) => {
          await em.nativeUpdate(
            AccessToken,
            { credential: await credentialOf(em, partner) },
            { revokedAt: new Date() },
          );
        }),
    },
    {
      name: 'the credential is revoked',
      authorization: () =>
        spoiled(async (em, partner) => {
          await em.nativeUpdate(Credential, { clientId: partner.clientId }, { revokedAt: new Date() });
        }),
    },
    {
      name: 'the credential is deleted',
      authorization: () =>
        spoiled(async (em, partner) => {
          const credential = await credentialOf(em, partner);
          await em.nativeDelete(AccessToken, { credential });
          await em.nativeDelete(Credential, { id: credential.id });
        }),
    },
    {
      name: 'the company is inactive',
      authorization: () =>
        spoiled(async (em, partner) => {
          await em.nativeUpdate(Company, { id: partner.companyId }, { active: false });
        }),
    },
    {
      name: 'the company is deleted',
      authorization: () =>
        spoiled(async (em, partner) => {
          const credential = await credentialOf(em, partner);
          await em.nativeDelete(AccessToken, { credential });
          await em.nativeDelete(Credential, { id: credential.id });
          await em.nativeDelete(Company, { id: partner.companyId });
        }),
    },
  ];

  const document = loadSpecDocument() as WireJson;
  const secured: Array<{ operationId: string; method: string; path: string }> = [];
  for (const [template, item] of Object.entries<WireJson>(document.paths)) {
    for (const [method, operation] of Object.entries<WireJson>(item)) {
      if (!operation?.operationId || (operation.security ?? document.security ?? []).length === 0) continue;
      secured.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: template.replace(/\{[^}]+\}/g, 'ORD-2026-000001'),
      });
    }
  }

  it('the document has authenticated operations to check', () => {
    expect(secured.length).toBeGreaterThanOrEqual(17);
  });

  it.each(causes.map((c) => [c.name, c] as const))(
    'when %s, every authenticated operation answers 401 in shape 1',
    async (_name, cause) => {
      const authorization = await cause.authorization();
      for (const operation of secured) {
        const headers: Record<string, string> = { 'idempotency-key': randomUUID() };
        if (authorization) headers.authorization = authorization;
        const response = await client.op(
          operation.operationId,
          operation.method,
          operation.path,
          operation.method === 'GET' || operation.method === 'DELETE' ? undefined : {},
          { headers },
        );
        expect({ operation: operation.operationId, status: response.status }).toEqual({
          operation: operation.operationId,
          status: 401,
        });
        expect(response.body).not.toHaveProperty('timestamp');
      }
    },
  );
});

describe('forged gateway callbacks', () => {
  const report = () => ({
    paymentRef,
    status: 'SUCCESS',
    amount: order.totalAmount / 100,
    currency: 'NPR',
    gatewayTransactionId: `FORGED-${randomUUID()}`,
    issuedAt: new Date().toISOString(),
  });
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it("are 400 in shape 2 and leave the owner's order unpaid: no signature, a made-up one, one under a guessed secret, an unknown gateway", async () => {
    const payload = encode(report());
    const queries: Array<Record<string, string>> = [
      { gateway: 'card_gateway', payload },
      { gateway: 'card_gateway', payload, signature: 'f'.repeat(64) },
      { gateway: 'card_gateway', payload, signature: createHmac('sha256', 'sandbox').update(payload).digest('hex') },
      { gateway: 'card_gateway', payload, signature: createHmac('sha256', '').update(payload).digest('hex') },
      { gateway: 'evil_gateway', payload, signature: createHmac('sha256', 'x').update(payload).digest('hex') },
    ];
    const before = await ledgerOf(server, order.orderId);
    for (const query of queries) {
      const response = await client.call('GET', CALLBACK, undefined, { query });
      expectStatus(response, 400);
      await expectContract('handlePaymentCallback', 400, response.body);
    }
    expect(await ledgerOf(server, order.orderId)).toEqual(before);
    expect(before.orderStatus).toBe('PENDING');
  });
});
