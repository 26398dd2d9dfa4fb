import { CTGS } from '../support/catalogue-fixtures';
import { at, first } from '../support/elements';
import { departure, everestQuote, orderFromQuote, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';

// Two servers, each with its own connection pool, over one PostgreSQL: references must come from
// the database, not from anything one process holds.
const started = [useTestServer(), useTestServer()];
const servers = started.map(({ server }) => server);
const clients = started.map(({ client }) => client);
let agency: TestPartner;
let travellers: string[];
/** The client of one of the two servers, taking turns by `index`. */
const clientOf = (index: number) => at(clients, index % 2, 'the clients');
const travellerOf = (index: number) => at(travellers, index % travellers.length, 'the travellers');

beforeAll(async () => {
  agency = await newPartner(first(servers, 'the servers'), clientOf(0));
  travellers = await Promise.all(
    Array.from({ length: 4 }, () => newTraveller(first(servers, 'the servers'), agency.companyId)),
  );
});

const lowTrek = (touristId: string) => ({
  touristId,
  ctgId: CTGS.standard3000,
  customRouteName: 'Kathmandu valley rim walk',
  departureDate: departure,
});
const send = (index: number, body: unknown) =>
  clientOf(index).op('createOrders', 'POST', ORDERS, body, { token: agency.token });

describe('POST /orders under concurrency', () => {
  it('when 200 orders are created at once through two servers, then all succeed with 200 distinct, well-formed references', async () => {
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) => send(index, lowTrek(travellerOf(index)))),
    );
    const elapsedMs = Date.now() - started;
    expect(responses.map((response) => response.status)).toEqual(Array(200).fill(201));
    const refs = responses.map((response) => response.body.data.orderRef as string);
    const numbers = responses.map((response) => response.body.data.orderNumber as string);
    expect(new Set(refs).size).toBe(200);
    expect(new Set(numbers).size).toBe(200);
    for (const ref of refs) expect(ref).toMatch(/^ORD-\d{4}-\d{6,}$/);
    for (const number of numbers) expect(number).toMatch(/^ORDN-\d{4}-\d{6,}$/);
    console.info(
      `200 concurrent order creations over 2 servers: ${elapsedMs} ms (${Math.round(200_000 / elapsedMs)} orders/s)`,
    );
  }, 120_000);

  it('when 30 groups are created at once through two servers, then every group reference and order reference is distinct', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        send(index, [lowTrek(travellerOf(0)), lowTrek(travellerOf(1)), lowTrek(travellerOf(2))]),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(30).fill(201));
    expect(new Set(responses.map((response) => response.body.data.groupRef)).size).toBe(30);
    expect(
      new Set(
        responses.flatMap((response) => response.body.data.orders.map((order: { orderRef: string }) => order.orderRef)),
      ).size,
    ).toBe(90);
  }, 60_000);

  it('when ten requests race for one quote on two servers, then exactly one order is created and the others are 409', async () => {
    const quote = await everestQuote(clientOf(0), agency);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) => send(index, orderFromQuote(quote, travellerOf(index)))),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
  });
});
