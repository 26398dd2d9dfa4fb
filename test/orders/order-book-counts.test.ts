import { randomUUID } from 'node:crypto';
import { addDays } from '../../src/kernel/business-date';
import { initOrm } from '../../src/database';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import type { ApiResponse, WireJson } from '../support/http-client';
import { ORDERS, departure } from '../support/order-fixtures';
import { createOwnDatabase } from '../support/own-database';
import { newPartner, type TestPartner } from '../support/partners';
import { lowTrek } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

/**
 * The order book at 1,000,000 orders (decision record 0065): `totalElements` of the unfiltered book and
 * of status / paymentStatus filters comes from counters kept at each order's commit, a status
 * filter or a short departure range is read one status or one day at a time, and every other
 * filter counts the rows. Whichever way a listing is read, it answers what the rows say.
 */
const { server, client } = useTestServer({ env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' } });
let agency: TestPartner;
let seller: TestPartner;
const surname = `Countwell${Date.now()}`;

async function place(partner: TestPartner, extra: Record<string, unknown> = {}, name?: string): Promise<string> {
  const touristId = await newTraveller(server, partner.companyId, name ? { name } : {});
  const response = await client.op('createOrders', 'POST', ORDERS, lowTrek(touristId, extra), { token: partner.token });
  if (response.status !== 201) throw new Error(`order failed: ${JSON.stringify(response.body)}`);
  return response.body.data.orderRef;
}

function list(partner: TestPartner, query: Array<[string, string]>): Promise<ApiResponse> {
  return client.op('listOrders', 'GET', `${ORDERS}?${new URLSearchParams(query).toString()}`, undefined, {
    token: partner.token,
  });
}

/** The whole book, as the unfiltered listing shows it: the oracle every filtered listing is checked against. */
async function book(partner: TestPartner): Promise<WireJson[]> {
  const response = await list(partner, [['size', '100']]);
  expectStatus(response, 200);
  expect(response.body.data.totalElements).toBe(response.body.data.content.length);
  return response.body.data.content;
}

/** Each company's counters beside a count of its rows, where they differ. */
async function countersOffBy(companyIds: string[]): Promise<unknown[]> {
  return server.orm.em.getConnection().execute(
    `select coalesce(c.company_id, o.company_id) as company_id, coalesce(c.status, o.status) as status, coalesce(c.payment_status, o.payment_status) as payment_status, c.orders as counted, o.orders as rows
      from (select * from order_status_count where company_id = any(?::uuid[])) c
      full join (select company_id, status, payment_status, count(*) as orders from insurance_order where company_id = any(?::uuid[]) group by 1, 2, 3) o
        on o.company_id = c.company_id and o.status = c.status and o.payment_status = c.payment_status
      where coalesce(c.orders, 0) <> coalesce(o.orders, 0)`,
    [`{${companyIds.join(',')}}`, `{${companyIds.join(',')}}`],
  );
}

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Counted Treks', type: CompanyType.TravelAgency });
  seller = await newPartner(server, client, { name: 'Counted Sales', type: CompanyType.SalesCompany });
  await place(agency, {}, `Anna ${surname}`);
  // Listed between the agency's own orders: the two sides interleave newest first.
  await place(seller, { travelCompanyIds: [agency.companyId], departureDate: addDays(departure, 1) });
  const paid = await place(agency, { departureDate: addDays(departure, 1), settlementType: 'CASH' });
  await recordCashPayment(server.orm.em.fork(), paid, { amount: 450_000 }, 'operator-cli:test');
  const cancelled = await place(agency, { departureDate: addDays(departure, 2) });
  await cancelFromCommandLine(server.orm.em.fork(), cancelled, 'operator-cli:test', server.payments);
  const started = await place(agency, { departureDate: addDays(departure, 40) }, `Bikash ${surname}`);
  const pay = await client.op(
    'payOrder',
    'POST',
    `${ORDERS}/${started}/pay`,
    { gateway: 'card_gateway', returnUrl: 'https://agency.example.com/back' },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );
  if (pay.status !== 200) throw new Error(`pay failed: ${JSON.stringify(pay.body)}`);
  const touristId = await newTraveller(server, agency.companyId);
  const group = await client.op(
    'createOrders',
    'POST',
    ORDERS,
    [lowTrek(touristId), lowTrek(touristId), lowTrek(touristId, { departureDate: addDays(departure, 2) })],
    { token: agency.token },
  );
  if (group.status !== 201) throw new Error(`group failed: ${JSON.stringify(group.body)}`);
  await place(seller, { travelCompanyIds: [agency.companyId] }, `Chloé ${surname}`);
});

describe('GET /orders totalElements and pages, however a filter is read', () => {
  it('counters match the rows for every (status, payment status) after orders are placed, paid, cancelled and started paying', async () => {
    expect(await countersOffBy([agency.companyId, seller.companyId])).toEqual([]);
  });

  it('orders placed at the same time are each counted once', async () => {
    const racer = await newPartner(server, client);
    const touristId = await newTraveller(server, racer.companyId);
    const placed = await Promise.all(
      Array.from({ length: 6 }, () =>
        client.op('createOrders', 'POST', ORDERS, lowTrek(touristId), { token: racer.token }),
      ),
    );
    expect(placed.map((response) => response.status)).toEqual(Array(6).fill(201));
    expect(await countersOffBy([racer.companyId])).toEqual([]);
    expect((await list(racer, [])).body.data.totalElements).toBe(6);
    expect((await list(racer, [['status', 'PENDING']])).body.data.totalElements).toBe(6);
  });

  const day = (n: number) => addDays(departure, n);
  const cases: Array<[string, Array<[string, string]>, (order: WireJson) => boolean]> = [
    ['no filter (counters)', [], () => true],
    ['one status (counters, one walk)', [['status', 'PENDING']], (o) => o.status === 'PENDING'],
    [
      'several statuses (counters, one walk each, merged newest first)',
      [
        ['status', 'PENDING'],
        ['status', 'CANCELLED'],
      ],
      (o) => ['PENDING', 'CANCELLED'].includes(o.status),
    ],
    ['a payment status (counters)', [['paymentStatus', 'NOT_INITIATED']], (o) => o.paymentStatus === 'NOT_INITIATED'],
    [
      'status and payment status (counters)',
      [
        ['status', 'PENDING'],
        ['paymentStatus', 'INITIATED'],
      ],
      (o) => o.status === 'PENDING' && o.paymentStatus === 'INITIATED',
    ],
    [
      'status and payment status that never meet',
      [
        ['status', 'CANCELLED'],
        ['paymentStatus', 'SUCCESS'],
      ],
      () => false,
    ],
    [
      'a departure range of days (one walk a day)',
      [
        ['departureFrom', day(0)],
        ['departureTo', day(2)],
      ],
      (o) => o.departureDate >= day(0) && o.departureDate <= day(2),
    ],
    [
      'a departure range of 40 days (day by day)',
      [
        ['departureFrom', day(1)],
        ['departureTo', day(40)],
      ],
      (o) => o.departureDate >= day(1) && o.departureDate <= day(40),
    ],
    [
      'a departure range of 400 days (read whole for pages of 100, day by day for pages of 2)',
      [
        ['departureFrom', day(1)],
        ['departureTo', day(400)],
      ],
      (o) => o.departureDate >= day(1),
    ],
    [
      'status with a departure range (rows counted)',
      [
        ['status', 'PENDING'],
        ['departureFrom', day(0)],
        ['departureTo', day(2)],
      ],
      (o) => o.status === 'PENDING' && o.departureDate <= day(2),
    ],
    [
      'payment status with departureFrom alone (rows counted)',
      [
        ['paymentStatus', 'NOT_INITIATED'],
        ['departureFrom', day(1)],
      ],
      (o) => o.paymentStatus === 'NOT_INITIATED' && o.departureDate >= day(1),
    ],
    [
      'status with a name search (rows counted)',
      [
        ['status', 'PENDING'],
        ['search', surname.toLowerCase()],
      ],
      (o) => o.status === 'PENDING' && String(o.travellerName).includes(surname),
    ],
  ];
  it.each(cases)(
    '%s: the orders the filters select, newest first, and totalElements their number',
    async (_label, query, selects) => {
      const expected = (await book(agency)).filter(selects).map((order) => order.orderRef);
      const response = await list(agency, [...query, ['size', '100']]);
      expectStatus(response, 200);
      expect(response.body.data.content.map((order: WireJson) => order.orderRef)).toEqual(expected);
      expect(response.body.data.totalElements).toBe(expected.length);
      const paged: string[] = [];
      for (let page = 0; page <= expected.length / 2; page++) {
        const one = await list(agency, [...query, ['size', '2'], ['page', String(page)]]);
        expect(one.body.data.totalElements).toBe(expected.length);
        paged.push(...one.body.data.content.map((order: WireJson) => order.orderRef));
      }
      expect(paged).toEqual(expected);
    },
  );

  it('the book has what the cases need: listed orders among its own, newest first, and orders in each status', async () => {
    const orders = await book(agency);
    expect(orders.map((o) => o.access)).toEqual(['LISTED_AGENCY', ...Array(6).fill('OWNER'), 'LISTED_AGENCY', 'OWNER']);
    const times = orders.map((o) => Date.parse(o.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(orders.map((o) => `${o.status}/${o.paymentStatus}`))).toEqual(
      new Set(['PENDING/NOT_INITIATED', 'PAID/SUCCESS', 'CANCELLED/NOT_INITIATED', 'PENDING/INITIATED']),
    );
  });
});

describe('migration OrderBookCounts', () => {
  it("goes down to the single order counter (and listings without their order's time) and up again", async () => {
    const database = await createOwnDatabase('order_counts');
    const orm = await initOrm(database.url, 2);
    try {
      const tables = async () =>
        (
          await orm.em
            .getConnection()
            .execute<Array<{ table_name: string }>>(
              `select table_name from information_schema.tables where table_name in ('order_count', 'order_status_count') order by 1`,
            )
        ).map((row) => row.table_name);
      const listingTimes = async () =>
        (
          await orm.em
            .getConnection()
            .execute<Array<{ n: number }>>(
              `select count(*)::int as n from information_schema.columns where table_name = 'order_travel_company' and column_name = 'order_created_at'`,
            )
        )[0]!.n;
      await orm.migrator.up();
      expect([await tables(), await listingTimes()]).toEqual([['order_status_count'], 1]);
      await orm.migrator.down({ to: 'Migration20261125224000_OrderAmendments' });
      expect([await tables(), await listingTimes()]).toEqual([['order_count'], 0]);
      await orm.migrator.up();
      expect([await tables(), await listingTimes()]).toEqual([['order_status_count'], 1]);
    } finally {
      await orm.close(true);
      await database.drop();
    }
  });
});
