import { randomUUID } from 'node:crypto';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { Order } from '../../src/modules/orders/entities/order';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import type { ApiResponse } from '../support/http-client';
import { addDays } from '../../src/kernel/business-date';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { lowTrek, newCode, newSalesCompany } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

/**
 * Decision record 0105 (who may act on an order): company H places an order (and a group) listing agency A in
 * `travelCompanyIds`. H reads and acts; A reads (detail, payment-status) and gets 403 on every
 * write; stranger S gets 403 everywhere. Every operation that takes an order or group identifier,
 * for each of the three.
 */
const { server, client } = useTestServer();
let placing: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;
let orderRef: string;
let groupRef: string;
let groupOrderIds: string[];
let orderId: string;
let promoCode: string;

type Call = (caller: TestPartner) => Promise<ApiResponse>;

const orderOps: Array<[string, 'READ' | 'ACT', Call]> = [
  ['getOrder', 'READ', (c) => client.op('getOrder', 'GET', `${ORDERS}/${orderRef}`, undefined, { token: c.token })],
  [
    'getPaymentStatus',
    'READ',
    (c) => client.op('getPaymentStatus', 'GET', `${ORDERS}/${orderRef}/payment-status`, undefined, { token: c.token }),
  ],
  [
    'previewOrderPromo',
    'ACT',
    (c) =>
      client.op('previewOrderPromo', 'POST', `${ORDERS}/${orderRef}/promo/preview`, { promoCode }, { token: c.token }),
  ],
  [
    'applyOrderPromo',
    'ACT',
    (c) => client.op('applyOrderPromo', 'POST', `${ORDERS}/${orderRef}/promo`, { promoCode }, { token: c.token }),
  ],
  [
    'removeOrderPromo',
    'ACT',
    (c) => client.op('removeOrderPromo', 'DELETE', `${ORDERS}/${orderRef}/promo`, undefined, { token: c.token }),
  ],
  [
    'payOrder',
    'ACT',
    (c) =>
      client.op(
        'payOrder',
        'POST',
        `${ORDERS}/${orderRef}/pay`,
        { gateway: 'card_gateway', returnUrl: 'https://agency.example.com/back' },
        { token: c.token, headers: { 'idempotency-key': randomUUID() } },
      ),
  ],
  [
    'updateOrder',
    'ACT',
    (c) =>
      client.op(
        'updateOrder',
        'PATCH',
        `${ORDERS}/${orderRef}`,
        { departureDate: addDays(departure, 1) },
        { token: c.token },
      ),
  ],
];
const groupOps: Array<[string, 'ACT', Call]> = [
  [
    'previewGroupPromo',
    'ACT',
    (c) =>
      client.op(
        'previewGroupPromo',
        'POST',
        `${ORDERS}/groups/${groupRef}/promo/preview`,
        { promoCode },
        { token: c.token },
      ),
  ],
  [
    'applyGroupPromo',
    'ACT',
    (c) =>
      client.op('applyGroupPromo', 'POST', `${ORDERS}/groups/${groupRef}/promo`, { promoCode }, { token: c.token }),
  ],
  [
    'removeGroupPromo',
    'ACT',
    (c) => client.op('removeGroupPromo', 'DELETE', `${ORDERS}/groups/${groupRef}/promo`, undefined, { token: c.token }),
  ],
  [
    'payGroup',
    'ACT',
    (c) =>
      client.op(
        'payGroup',
        'POST',
        `${ORDERS}/groups/${groupRef}/pay`,
        { gateway: 'wallet_gateway' },
        { token: c.token, headers: { 'idempotency-key': randomUUID() } },
      ),
  ],
];

/** What a write would change: the orders' promo slots and totals, and their payment attempts. */
async function writableState() {
  const em = server.orm.em.fork();
  const ids = [orderId, ...groupOrderIds];
  const orders = await em.find(Order, { id: { $in: ids } }, { orderBy: { id: 'asc' } });
  const attempts = await em.count(PaymentAttempt, { orders: { order: { $in: ids } } });
  return {
    orders: orders.map((o) => [
      o.id,
      o.totalAmount,
      o.companyPromoCode?.id ?? null,
      o.agentPromoCode?.id ?? null,
      o.status,
      o.departureDate,
      o.coverageEndDate,
    ]),
    attempts,
  };
}

beforeAll(async () => {
  placing = await newPartner(server, client, { name: 'Himalayan Cover Sales Test', type: CompanyType.SalesCompany });
  listed = await newPartner(server, client, { name: 'Listed Agency Treks', type: CompanyType.TravelAgency });
  stranger = await newPartner(server, client, { name: 'Stranger Treks', type: CompanyType.TravelAgency });
  promoCode = await newCode(server, await newSalesCompany(server));
  const touristId = await newTraveller(server, placing.companyId);
  const single = await client.op(
    'createOrders',
    'POST',
    ORDERS,
    lowTrek(touristId, { travelCompanyIds: [listed.companyId] }),
    { token: placing.token },
  );
  ({ orderRef, orderId } = single.body.data);
  const group = await client.op(
    'createOrders',
    'POST',
    ORDERS,
    [
      lowTrek(touristId, { travelCompanyIds: [listed.companyId] }),
      lowTrek(touristId, { travelCompanyIds: [listed.companyId] }),
    ],
    { token: placing.token },
  );
  groupRef = group.body.data.groupRef;
  groupOrderIds = group.body.data.orders.map((o: { orderId: string }) => o.orderId);
});

describe('the access matrix of every order and group operation', () => {
  it('a listed agency reads the order (200) and gets 403 on every write; a stranger gets 403 on everything; neither changes anything', async () => {
    const before = await writableState();
    const answers: { listed: Record<string, number>; stranger: Record<string, number> } = { listed: {}, stranger: {} };
    for (const [operationId, intent, call] of [...orderOps, ...groupOps]) {
      const asListed = await call(listed);
      answers.listed[operationId] = asListed.status;
      expect({ operationId, status: asListed.status }).toEqual({ operationId, status: intent === 'READ' ? 200 : 403 });
      const asStranger = await call(stranger);
      answers.stranger[operationId] = asStranger.status;
      expect({ operationId, status: asStranger.status }).toEqual({ operationId, status: 403 });
    }
    expect(await writableState()).toEqual(before);
    const writesThatSucceeded = Object.values(answers).flatMap((byOp) =>
      Object.entries(byOp).filter(([op, status]) => status < 300 && !op.startsWith('get')),
    );
    expect(writesThatSucceeded).toEqual([]);
  });

  it('tells a listed agency refused a write who may do it and what it may do instead', async () => {
    const refused = await client.op(
      'applyOrderPromo',
      'POST',
      `${ORDERS}/${orderRef}/promo`,
      { promoCode },
      {
        token: listed.token,
      },
    );
    expectStatus(refused, 403);
    expect(refused.body.message).toBe(
      `Only the company that placed order ${orderRef} can change or pay it; your company is listed on it and may read it (GET /orders/${orderRef}): ask the placing company to do this`,
    );
  });

  it('a listed agency reads what the placing company reads: the same order detail and payment status', async () => {
    for (const [, , call] of orderOps.filter(([, intent]) => intent === 'READ')) {
      const [own, theirs] = [await call(placing), await call(listed)];
      expect(theirs.body.data).toEqual(own.body.data);
    }
  });

  it('the placing company does every one of them', async () => {
    for (const [operationId, , call] of [...orderOps, ...groupOps]) {
      const response = await call(placing);
      expect({ operationId, status: response.status }).toEqual({ operationId, status: 200 });
    }
  });
});

// Issue 30, item 11: a group payment reference answered a stranger 400 ("is a group payment
// reference") where a made-up one answered 404 and a single order's payment reference 403: the
// classification told strangers which references were real group payments. Access comes first.
describe('a group payment reference, looked up as an order', () => {
  let groupPaymentRef: string;
  beforeAll(async () => {
    const paid = await client.op(
      'payGroup',
      'POST',
      `${ORDERS}/groups/${groupRef}/pay`,
      { gateway: 'wallet_gateway' },
      { token: placing.token, headers: { 'idempotency-key': randomUUID() } },
    );
    if (paid.status !== 200) throw new Error(`the group payment did not start: ${JSON.stringify(paid.body)}`);
    groupPaymentRef = paid.body.data.paymentRef;
  });
  const status = (caller: TestPartner, identifier: string) =>
    client.op('getPaymentStatus', 'GET', `${ORDERS}/${encodeURIComponent(identifier)}/payment-status`, undefined, {
      token: caller.token,
    });

  it("to a stranger is the 403 of anybody else's order, never the 400 that classifies it", async () => {
    const response = await status(stranger, groupPaymentRef);
    expectStatus(response, 403);
    expect(JSON.stringify(response.body)).not.toMatch(/group/i);
    expect(response.body.message).toBe((await status(stranger, orderRef)).body.message);
  });

  it('to the placing company and to a listed agency is the 400 that says to query each order', async () => {
    for (const caller of [placing, listed]) {
      const response = await status(caller, groupPaymentRef);
      expectStatus(response, 400);
      expect(response.body.message).toMatch(/is a group payment reference/);
    }
  });

  it('made up, is a 404 to everybody', async () => {
    expectStatus(await status(stranger, 'GRP-2030-999999-1916125865117'), 404);
  });
});
