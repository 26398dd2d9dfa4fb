import { addDays } from '../../src/kernel/business-date';
import { CTGS } from '../support/catalogue-fixtures';
import { departure, everestQuote, orderFromQuote, ORDERS, writtenState } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import type { WireJson } from '../support/http-client';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let agency: TestPartner;
let first: string;
let second: string;

beforeAll(async () => {
  agency = await newPartner(server, client);
  first = await newTraveller(server, agency.companyId, { name: 'Daniel Okafor' });
  second = await newTraveller(server, agency.companyId, { name: 'Mei Lin Tan' });
});

const createOrders = (body: unknown, partner: TestPartner = agency) =>
  client.op('createOrders', 'POST', ORDERS, body, { token: partner.token });
const lowTrek = (touristId: string, extra: Record<string, unknown> = {}) => ({
  touristId,
  ctgId: CTGS.standard3000,
  customRouteName: 'Kathmandu valley rim walk',
  departureDate: departure,
  ...extra,
});

/** Sends a batch that must be rejected and proves it wrote no order, no group and consumed no quote. */
async function expectRejected(body: unknown, status: number, quoteIds: string[] = []) {
  const before = await writtenState(server, agency.companyId, quoteIds);
  const response = await createOrders(body);
  expectStatus(response, status);
  expect(await writtenState(server, agency.companyId, quoteIds)).toEqual(before);
  return response;
}

describe('POST /orders with an array body', () => {
  it('when the body is an array of two quoted orders, then one group holds both orders in request order with summed totals', async () => {
    const [quoteA, quoteB] = [await everestQuote(client, agency), await everestQuote(client, agency)];
    const response = await createOrders([
      orderFromQuote(quoteA, first),
      orderFromQuote(quoteB, second, { directDiscountPercent: 5 }),
    ]);
    expectStatus(response, 201);
    const group = response.body.data;
    expect(group.groupRef).toMatch(/^GRP-\d{4}-\d{6,}$/);
    expect(group.orders.map((order: WireJson) => order.traveller.touristId)).toEqual([first, second]);
    expect(group.orders.map((order: WireJson) => order.groupRef)).toEqual([group.groupRef, group.groupRef]);
    expect(new Set(group.orders.map((order: WireJson) => order.orderRef)).size).toBe(2);
    // 19,600 + (19,600 - 5 % of 19,600)
    expect(group.totals).toEqual({
      currency: 'NPR',
      orderCount: 2,
      subtotal: 39200,
      totalDiscount: 980,
      totalAmount: 38220,
    });
    expect((await writtenState(server, agency.companyId, [quoteA.quoteId, quoteB.quoteId])).quoteStatuses).toEqual([
      'USED',
      'USED',
    ]);
  });

  it('when the array has one element, then it is still a group', async () => {
    const response = await createOrders([lowTrek(first)]);
    expectStatus(response, 201);
    expect(response.body.data.groupRef).toMatch(/^GRP-/);
    expect(response.body.data.orders).toHaveLength(1);
    expect(response.body.data.totals.orderCount).toBe(1);
  });

  it('when one item breaks a rule, then the whole array fails with an indexed field error and nothing is written', async () => {
    const quote = await everestQuote(client, agency);
    const response = await expectRejected(
      [orderFromQuote(quote, first), lowTrek(second, { customRouteName: undefined })],
      400,
      [quote.quoteId],
    );
    expect(response.body.details.fieldErrors).toEqual({ '[1].routeId': 'routeId or customRouteName is required' });
  });

  it('when several items break rules, then every broken field is reported with its index', async () => {
    const response = await expectRejected(
      [
        lowTrek(first, { directDiscountPercent: 50 }),
        lowTrek(second),
        lowTrek(second, { departureDate: '2020-01-01' }),
      ],
      400,
    );
    expect(Object.keys(response.body.details.fieldErrors).sort()).toEqual([
      '[0].directDiscountPercent',
      '[2].departureDate',
    ]);
  });

  it('when an item fails the schema, then the field error carries the index', async () => {
    const response = await expectRejected([lowTrek(first), lowTrek(second, { ctgId: 'standard' })], 400);
    expect(response.body.details.fieldErrors).toHaveProperty(['[1].ctgId']);
  });

  it('when an item disagrees with its quote, then the whole array fails on that item and no quote is consumed', async () => {
    const [quoteA, quoteB] = [await everestQuote(client, agency), await everestQuote(client, agency)];
    const response = await expectRejected(
      [orderFromQuote(quoteA, first), orderFromQuote(quoteB, second, { departureDate: addDays(departure, 1) })],
      400,
      [quoteA.quoteId, quoteB.quoteId],
    );
    expect(response.body.details.fieldErrors['[1].departureDate']).toContain(quoteB.startDate);
    expect((await writtenState(server, agency.companyId, [quoteA.quoteId, quoteB.quoteId])).quoteStatuses).toEqual([
      'ACTIVE',
      'ACTIVE',
    ]);
  });

  it('when one item names an unknown traveller, then it is a 404 that names the item and nothing is written', async () => {
    const response = await expectRejected([lowTrek(first), lowTrek('00000000-0000-4000-8000-000000000000')], 404);
    expect(response.body.message).toContain('[1]');
  });

  it('when two items use the same quote, then the second is a 400 on [1].quoteId', async () => {
    const quote = await everestQuote(client, agency);
    const response = await expectRejected([orderFromQuote(quote, first), orderFromQuote(quote, second)], 400, [
      quote.quoteId,
    ]);
    expect(response.body.details.fieldErrors['[1].quoteId']).toContain('[0]');
  });

  it('when an item uses a quote already used, then the whole array is a 409 and the other quote stays ACTIVE', async () => {
    const [fresh, used] = [await everestQuote(client, agency), await everestQuote(client, agency)];
    expectStatus(await createOrders(orderFromQuote(used, first)), 201);
    await expectRejected([orderFromQuote(fresh, first), orderFromQuote(used, second)], 409, [fresh.quoteId]);
    expect((await writtenState(server, agency.companyId, [fresh.quoteId])).quoteStatuses).toEqual(['ACTIVE']);
  });

  it('when an item sends orderGroupId, then it is a 400: an array makes its own group', async () => {
    const response = await expectRejected(
      [lowTrek(first, { orderGroupId: '00000000-0000-4000-8000-000000000000' })],
      400,
    );
    expect(response.body.details.fieldErrors).toHaveProperty(['[0].orderGroupId']);
  });

  it('when the array is empty or holds more than 50 items, then it is a 400', async () => {
    await expectRejected([], 400);
    await expectRejected(
      Array.from({ length: 51 }, () => lowTrek(first)),
      400,
    );
  });

  it('when an item carries a promo code, then that order reports its promoApplyResult and the group is created', async () => {
    const response = await createOrders([lowTrek(first), lowTrek(second, { promoCode: 'SUMMIT10' })]);
    expectStatus(response, 201);
    expect(response.body.data.orders[0].promoApplyResult).toBeUndefined();
    expect(response.body.data.orders[1].promoApplyResult).toMatchObject({ promoCode: 'SUMMIT10', applied: false });
  });
});
