import { randomUUID } from 'node:crypto';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { csvRecords } from '../support/csv';
import type { ApiResponse, WireJson } from '../support/http-client';
import { ORDERS, departure } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { lowTrek } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

/**
 * Decision record 0064: GET /orders lists what a company may read, newest first, filtered
 * within documented bounds; `Accept: text/csv` exports every match as RFC 4180 CSV.
 */
const { server, client } = useTestServer({ env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' } });
let agency: TestPartner;
let seller: TestPartner;
const later = addDays(departure, 10);
const mullerName = `Zoë Müller-Ñandú ${Date.now()}`;
const trickyName = 'Keller, "Sophie"';
const formulaRoute = '=HYPERLINK("http://evil.example")';

interface Placed {
  orderRef: string;
  orderNumber: string;
  touristId: string;
  createdAt: string;
}
const placed: Record<'muller' | 'tricky' | 'paid' | 'cancelled' | 'later' | 'listed', Placed> = {} as never;
let group: { groupRef: string; orderRefs: string[] };
let policyNumber: string;

async function place(partner: TestPartner, touristId: string, extra: Record<string, unknown> = {}): Promise<Placed> {
  const response = await client.op('createOrders', 'POST', ORDERS, lowTrek(touristId, extra), { token: partner.token });
  if (response.status !== 201) throw new Error(`order failed: ${JSON.stringify(response.body)}`);
  const { orderRef, orderNumber, createdAt } = response.body.data;
  return { orderRef, orderNumber, touristId, createdAt };
}

/** GET /orders with the query as given (repeated keys allowed), checked against the contract. */
function list(
  partner: TestPartner,
  query: Array<[string, string]> = [],
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const search = new URLSearchParams(query).toString();
  return client.op('listOrders', 'GET', `${ORDERS}${search ? `?${search}` : ''}`, undefined, {
    token: partner.token,
    headers,
  });
}

async function refsOf(partner: TestPartner, query: Array<[string, string]>): Promise<string[]> {
  const response = await list(partner, [...query, ['size', '100']]);
  expectStatus(response, 200);
  expect(response.body.data.totalElements).toBe(response.body.data.content.length);
  return response.body.data.content.map((item: WireJson) => item.orderRef);
}

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Order Book Treks', type: CompanyType.TravelAgency });
  seller = await newPartner(server, client, { name: 'Order Book Sales', type: CompanyType.SalesCompany });
  placed.muller = await place(agency, await newTraveller(server, agency.companyId, { name: mullerName }));
  placed.tricky = await place(agency, await newTraveller(server, agency.companyId, { name: trickyName }), {
    customRouteName: formulaRoute,
  });
  placed.paid = await place(agency, await newTraveller(server, agency.companyId), { settlementType: 'CASH' });
  policyNumber = (
    await recordCashPayment(server.orm.em.fork(), placed.paid.orderRef, { amount: 450_000 }, 'operator-cli:test')
  ).order.policyNumber!;
  placed.cancelled = await place(agency, await newTraveller(server, agency.companyId));
  await cancelFromCommandLine(server.orm.em.fork(), placed.cancelled.orderRef, 'operator-cli:test', server.payments);
  placed.later = await place(agency, await newTraveller(server, agency.companyId), { departureDate: later });
  const touristId = await newTraveller(server, agency.companyId);
  const created = await client.op('createOrders', 'POST', ORDERS, [lowTrek(touristId), lowTrek(touristId)], {
    token: agency.token,
  });
  // A group's orders may share their createdAt; the order id breaks the tie (newest first, then id descending).
  const newestFirst = (a: WireJson, b: WireJson) =>
    Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.orderId < b.orderId ? 1 : -1);
  const byIdDescending = [...created.body.data.orders].sort(newestFirst);
  group = { groupRef: created.body.data.groupRef, orderRefs: byIdDescending.map((order: WireJson) => order.orderRef) };
  placed.listed = await place(seller, await newTraveller(server, seller.companyId), {
    travelCompanyIds: [agency.companyId],
  });
});

const allRefs = () => [
  placed.listed.orderRef,
  ...group.orderRefs,
  placed.later.orderRef,
  placed.cancelled.orderRef,
  placed.paid.orderRef,
  placed.tricky.orderRef,
  placed.muller.orderRef,
];

describe('GET /orders', () => {
  it('lists the orders a company placed and those it is listed on, newest first, each with its access, and totalElements exact', async () => {
    const response = await list(agency);
    expectStatus(response, 200);
    const { content, totalElements, page, size, totalPages, first, last } = response.body.data;
    expect(content.map((item: WireJson) => item.orderRef)).toEqual(allRefs());
    expect({ totalElements, page, size, totalPages, first, last }).toEqual({
      totalElements: 8,
      page: 0,
      size: 20,
      totalPages: 1,
      first: true,
      last: true,
    });
    expect(content.map((item: WireJson) => item.access)).toEqual(['LISTED_AGENCY', ...Array(7).fill('OWNER')]);
  });

  it('shows each order as a back office lists it: references, statuses, policy number, traveller, route, dates, amount, group, paid and cancelled times', async () => {
    const byRef = new Map<string, WireJson>(
      (await list(agency)).body.data.content.map((item: WireJson) => [item.orderRef, item]),
    );
    expect(byRef.get(placed.muller.orderRef)).toEqual({
      orderRef: placed.muller.orderRef,
      orderNumber: placed.muller.orderNumber,
      status: 'PENDING',
      paymentStatus: 'NOT_INITIATED',
      policyNumber: null,
      touristId: placed.muller.touristId,
      travellerName: mullerName,
      routeName: 'Kathmandu valley rim walk',
      departureDate: departure,
      coverageStartDate: departure,
      coverageEndDate: addDays(departure, 6),
      totalAmount: 4500,
      currency: 'NPR',
      groupRef: null,
      createdAt: placed.muller.createdAt,
      paidAt: null,
      cancelledAt: null,
      refundRef: null,
      refundAmount: null,
      refundFee: null,
      refundStatus: null,
      access: 'OWNER',
      topUpAmount: 0,
    });
    expect(byRef.get(placed.paid.orderRef)).toMatchObject({
      status: 'PAID',
      paymentStatus: 'SUCCESS',
      policyNumber,
      paidAt: expect.any(String),
      cancelledAt: null,
    });
    expect(byRef.get(placed.cancelled.orderRef)).toMatchObject({
      status: 'CANCELLED',
      paymentStatus: 'NOT_INITIATED',
      cancelledAt: expect.any(String),
    });
    expect(Date.parse(byRef.get(placed.cancelled.orderRef).cancelledAt)).toBeGreaterThanOrEqual(
      Date.parse(placed.cancelled.createdAt),
    );
    expect(byRef.get(group.orderRefs[0]!).groupRef).toBe(group.groupRef);
    expect(byRef.get(placed.listed.orderRef)).toMatchObject({ access: 'LISTED_AGENCY', status: 'PENDING' });
  });

  it('pages with the /travellers envelope: pages of `size` cover every order once, a page past the end is empty, size above 100 is clamped', async () => {
    const seen: string[] = [];
    for (let page = 0; page < 4; page++) {
      const response = await list(agency, [
        ['size', '2'],
        ['page', String(page)],
      ]);
      expect(response.body.data).toMatchObject({
        page,
        size: 2,
        totalElements: 8,
        totalPages: 4,
        first: page === 0,
        last: page === 3,
      });
      seen.push(...response.body.data.content.map((item: WireJson) => item.orderRef));
    }
    expect(seen).toEqual(allRefs());
    expect(
      (
        await list(agency, [
          ['size', '2'],
          ['page', '4'],
        ])
      ).body.data.content,
    ).toEqual([]);
    expect((await list(agency, [['size', '1000']])).body.data.size).toBe(100);
  });

  describe('filters', () => {
    it('status: one, or several by repeating the parameter', async () => {
      expect(await refsOf(agency, [['status', 'PAID']])).toEqual([placed.paid.orderRef]);
      expect(
        await refsOf(agency, [
          ['status', 'PAID'],
          ['status', 'CANCELLED'],
        ]),
      ).toEqual([placed.cancelled.orderRef, placed.paid.orderRef]);
      expect(await refsOf(agency, [['status', 'COMPLETED']])).toEqual([]);
    });

    it('paymentStatus: as payment-status reports it', async () => {
      expect(await refsOf(agency, [['paymentStatus', 'SUCCESS']])).toEqual([placed.paid.orderRef]);
      expect(await refsOf(agency, [['paymentStatus', 'NOT_INITIATED']])).toEqual(
        allRefs().filter((ref) => ref !== placed.paid.orderRef),
      );
    });

    it('paymentStatus follows a payment as it starts: INITIATED while the customer is at the gateway', async () => {
      const payer = await newPartner(server, client);
      const order = await place(payer, await newTraveller(server, payer.companyId));
      const started = await client.op(
        'payOrder',
        'POST',
        `${ORDERS}/${order.orderRef}/pay`,
        { gateway: 'card_gateway', returnUrl: 'https://agency.example.com/back' },
        { token: payer.token, headers: { 'idempotency-key': randomUUID() } },
      );
      expectStatus(started, 200);
      expect(await refsOf(payer, [['paymentStatus', 'INITIATED']])).toEqual([order.orderRef]);
      await cancelFromCommandLine(server.orm.em.fork(), order.orderRef, 'operator-cli:test', server.payments);
      const after = (await list(payer, [['search', order.orderRef]])).body.data.content[0];
      expect(after).toMatchObject({ status: 'CANCELLED', paymentStatus: 'CANCELLED', cancelledAt: expect.any(String) });
    });

    it('departureFrom and departureTo: inclusive dates', async () => {
      expect(await refsOf(agency, [['departureFrom', later]])).toEqual([placed.later.orderRef]);
      expect(await refsOf(agency, [['departureTo', addDays(later, -1)]])).toEqual(
        allRefs().filter((ref) => ref !== placed.later.orderRef),
      );
      expect(
        await refsOf(agency, [
          ['departureFrom', departure],
          ['departureTo', departure],
        ]),
      ).toHaveLength(7);
    });

    it('createdFrom (inclusive) and createdTo (exclusive)', async () => {
      expect(await refsOf(agency, [['createdFrom', placed.later.createdAt]])).toEqual(allRefs().slice(0, 4));
      expect(await refsOf(agency, [['createdTo', placed.paid.createdAt]])).toEqual([
        placed.tricky.orderRef,
        placed.muller.orderRef,
      ]);
      expect(
        await refsOf(agency, [
          ['createdFrom', placed.paid.createdAt],
          ['createdTo', placed.later.createdAt],
        ]),
      ).toEqual([placed.cancelled.orderRef, placed.paid.orderRef]);
    });

    it('groupRef and touristId', async () => {
      expect(await refsOf(agency, [['groupRef', group.groupRef]])).toEqual(group.orderRefs);
      expect(await refsOf(agency, [['touristId', placed.muller.touristId.toUpperCase()]])).toEqual([
        placed.muller.orderRef,
      ]);
      expect(await refsOf(agency, [['groupRef', 'GRP-2030-999999']])).toEqual([]);
    });

    it('search: a whole order reference, order number or policy number in any case', async () => {
      expect(await refsOf(agency, [['search', placed.paid.orderRef.toLowerCase()]])).toEqual([placed.paid.orderRef]);
      expect(await refsOf(agency, [['search', placed.tricky.orderNumber]])).toEqual([placed.tricky.orderRef]);
      expect(await refsOf(agency, [['search', policyNumber.toLowerCase()]])).toEqual([placed.paid.orderRef]);
    });

    it('search: part of the traveller name, case- and accent-insensitive; LIKE wildcards are literal', async () => {
      for (const term of ['muller-nandu', 'MÜLLER', 'zoe mü', 'Ñandú'])
        expect(await refsOf(agency, [['search', term]])).toEqual([placed.muller.orderRef]);
      expect(await refsOf(agency, [['search', 'keller, "sophie"']])).toEqual([placed.tricky.orderRef]);
      expect(await refsOf(agency, [['search', '%%']])).toEqual([]);
      expect(await refsOf(agency, [['search', '__']])).toEqual([]);
    });

    it('filters combine with AND', async () => {
      expect(
        await refsOf(agency, [
          ['status', 'PENDING'],
          ['search', 'müller'],
        ]),
      ).toEqual([placed.muller.orderRef]);
      expect(
        await refsOf(agency, [
          ['status', 'PAID'],
          ['search', 'müller'],
        ]),
      ).toEqual([]);
    });
  });

  describe('sortBy and sortDir', () => {
    it('sortDir=asc on createdAt lists oldest first, exactly the reverse of the default', async () => {
      expect(
        await refsOf(agency, [
          ['sortBy', 'createdAt'],
          ['sortDir', 'asc'],
        ]),
      ).toEqual([...allRefs()].reverse());
    });

    it('sortBy=departureDate orders by the departure date, either way', async () => {
      const ascending = await refsOf(agency, [
        ['sortBy', 'departureDate'],
        ['sortDir', 'asc'],
      ]);
      expect(ascending.at(-1)).toBe(placed.later.orderRef);
      const descending = await refsOf(agency, [['sortBy', 'departureDate']]);
      expect(descending[0]).toBe(placed.later.orderRef);
      expect(descending).toEqual([...ascending].reverse());
    });

    it.each([
      ['departureDate', 'asc'],
      ['totalAmount', 'desc'],
      ['createdAt', 'asc'],
    ])(
      'sortBy=%s sortDir=%s: orders equal on the key keep one order, so pages of one cover every order once',
      async (sortBy, sortDir) => {
        const whole = await refsOf(agency, [
          ['sortBy', sortBy],
          ['sortDir', sortDir],
        ]);
        const paged: string[] = [];
        for (let page = 0; page < whole.length; page += 1) {
          const response = await list(agency, [
            ['sortBy', sortBy],
            ['sortDir', sortDir],
            ['size', '1'],
            ['page', String(page)],
          ]);
          expectStatus(response, 200);
          paged.push(...response.body.data.content.map((item: WireJson) => item.orderRef));
        }
        expect(paged).toEqual(whole);
        expect(new Set(whole).size).toBe(allRefs().length);
      },
    );

    it('the filters still apply under another order', async () => {
      // The group's orders cost the same: their order among themselves is the id's, so only the set is pinned.
      const refs = await refsOf(agency, [
        ['groupRef', group.groupRef],
        ['sortBy', 'totalAmount'],
        ['sortDir', 'asc'],
      ]);
      expect([...refs].sort()).toEqual([...group.orderRefs].sort());
    });

    it('the CSV export follows the order asked', async () => {
      const response = await list(
        agency,
        [
          ['sortBy', 'createdAt'],
          ['sortDir', 'asc'],
        ],
        { accept: 'text/csv' },
      );
      expect(csvRecords(response.body).records.map((record) => record.orderRef)).toEqual([...allRefs()].reverse());
    });
  });

  describe('filters outside their bounds are a 400 with a field error, in the contract shape', () => {
    const cases: Array<[string, Array<[string, string]>, string]> = [
      ['an unknown status', [['status', 'SHIPPED']], 'status'],
      [
        'more than 5 statuses',
        [
          ['status', 'PENDING'],
          ['status', 'PAID'],
          ['status', 'COMPLETED'],
          ['status', 'CLOSED'],
          ['status', 'CANCELLED'],
          ['status', 'PENDING'],
        ],
        'status',
      ],
      ['an unknown paymentStatus', [['paymentStatus', 'PAID']], 'paymentStatus'],
      ['a malformed departure date', [['departureFrom', '2031-02-30']], 'departureFrom'],
      ['a departure before 2000', [['departureTo', '1999-12-31']], 'departureTo'],
      [
        'departureFrom after departureTo',
        [
          ['departureFrom', '2031-10-31'],
          ['departureTo', '2031-10-01'],
        ],
        'departureTo',
      ],
      ['a createdFrom that is no date-time', [['createdFrom', 'yesterday']], 'createdFrom'],
      [
        'createdTo not after createdFrom',
        [
          ['createdFrom', '2030-09-01T00:00:00Z'],
          ['createdTo', '2030-09-01T00:00:00Z'],
        ],
        'createdTo',
      ],
      ['a malformed groupRef', [['groupRef', 'ORD-2030-000001']], 'groupRef'],
      ['a touristId that is no UUID', [['touristId', 'keller']], 'touristId'],
      ['a one-character search', [['search', 'k']], 'search'],
      ['a search of blanks', [['search', '   ']], 'search'],
      ['a search over 100 characters', [['search', 'k'.repeat(101)]], 'search'],
      ['a search with a line break', [['search', 'kel\nler']], 'search'],
      ['a negative page', [['page', '-1']], 'page'],
      ['an unknown sortBy', [['sortBy', 'orderRef']], 'sortBy'],
      ['an unknown sortDir', [['sortDir', 'up']], 'sortDir'],
    ];
    it.each(cases)('%s', async (_label, query, field) => {
      const response = await list(agency, query);
      expectStatus(response, 400);
      expect(response.body.message).toBe('Validation failed');
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(
        Object.keys(response.body.details.fieldErrors).some(
          (key) => key === field || key.startsWith(`${field}[`) || key.startsWith(`${field}.`),
        ),
      ).toBe(true);
    });

    it('the CSV export refuses the same filters with the same JSON 400', async () => {
      const response = await list(
        agency,
        [
          ['departureFrom', '2031-10-31'],
          ['departureTo', '2031-10-01'],
        ],
        { accept: 'text/csv' },
      );
      expectStatus(response, 400);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.body.details.fieldErrors.departureTo).toBe('must not be before departureFrom (2031-10-31)');
    });
  });
});

describe('GET /orders with Accept: text/csv', () => {
  it('exports every matching order, unpaged, as RFC 4180 CSV with the documented columns, as an attachment named for the day', async () => {
    const response = await list(agency, [['size', '2']], { accept: 'text/csv' });
    expectStatus(response, 200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="orders-${kathmanduToday()}.csv"`);
    const { header, records } = csvRecords(response.body);
    expect(header).toEqual([
      'orderRef',
      'orderNumber',
      'status',
      'paymentStatus',
      'policyNumber',
      'touristId',
      'travellerName',
      'routeName',
      'departureDate',
      'coverageStartDate',
      'coverageEndDate',
      'totalAmount',
      'currency',
      'groupRef',
      'createdAt',
      'paidAt',
      'cancelledAt',
      'refundRef',
      'refundAmount',
      'refundFee',
      'refundStatus',
      'access',
      'topUpAmount',
    ]);
    expect(records.map((record) => record.orderRef)).toEqual(allRefs());
    const json = new Map<string, WireJson>(
      (await list(agency)).body.data.content.map((item: WireJson) => [item.orderRef, item]),
    );
    for (const record of records) {
      const item = json.get(record.orderRef ?? '');
      const expected = Object.fromEntries(header.map((name) => [name, item[name] === null ? '' : String(item[name])]));
      expected.totalAmount = item.totalAmount.toFixed(2);
      expected.topUpAmount = item.topUpAmount.toFixed(2);
      if (record.orderRef === placed.tricky.orderRef) expected.routeName = `'${formulaRoute}`;
      expect(record).toEqual(expected);
    }
  });

  it('quotes a cell with a comma or a quote (quotes doubled) and neutralises a cell a spreadsheet would run as a formula', async () => {
    const response = await list(agency, [['search', placed.tricky.orderRef]], { accept: 'text/csv' });
    const line = response.body.split('\r\n')[1];
    expect(line).toContain(',"Keller, ""Sophie""",');
    expect(line).toContain(`,"'=HYPERLINK(""http://evil.example"")",`);
    expect(csvRecords(response.body).records[0]).toMatchObject({
      travellerName: trickyName,
      routeName: `'${formulaRoute}`,
    });
  });

  it('applies the filters, and exports just the header when nothing matches', async () => {
    const paid = csvRecords((await list(agency, [['status', 'PAID']], { accept: 'text/csv' })).body);
    expect(paid.records.map((record) => record.orderRef)).toEqual([placed.paid.orderRef]);
    expect(paid.records[0]).toMatchObject({ policyNumber, paymentStatus: 'SUCCESS', totalAmount: '4500.00' });
    const none = await list(agency, [['status', 'COMPLETED']], { accept: 'text/csv' });
    expect(none.body.split('\r\n')).toEqual([expect.stringMatching(/^orderRef,/), '']);
  });

  it('answers JSON when the client does not ask for CSV', async () => {
    const response = await list(agency, [], { accept: 'application/json, text/plain' });
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});
