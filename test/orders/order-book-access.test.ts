import { CompanyType } from '../../src/modules/partners/entities/company';
import { csvRecords } from '../support/csv';
import type { ApiResponse, WireJson } from '../support/http-client';
import { ORDERS, QUOTE, everestQuote } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { lowTrek } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

/**
 * Issue 29's access test: company A never sees, exports or reads B's orders or quotes. Owner O
 * places an order and a group listing agency L, and takes a quote; L and stranger S place their
 * own. Every operation of the order book (list, each identifying filter, CSV export) and the
 * quote readback, for the owner, the listed agency and the stranger.
 */
const { server, client } = useTestServer();
let owner: TestPartner;
let listed: TestPartner;
let stranger: TestPartner;
const own: Record<'owner' | 'listed' | 'stranger', { orderRefs: string[]; touristId: string; quoteId: string }> =
  {} as never;
let ownerGroupRef: string;
let ownerPolicyless: { orderRef: string; orderNumber: string };
let ownerTravellerName: string;

type Who = 'owner' | 'listed' | 'stranger';
const partner = (who: Who) => ({ owner, listed, stranger })[who];

function listAs(
  who: Who,
  query: Array<[string, string]> = [],
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const search = new URLSearchParams([...query, ['size', '100']]).toString();
  return client.op('listOrders', 'GET', `${ORDERS}?${search}`, undefined, { token: partner(who).token, headers });
}

async function visible(who: Who, query: Array<[string, string]> = []): Promise<Array<[string, string]>> {
  const response = await listAs(who, query);
  expectStatus(response, 200);
  return response.body.data.content.map((item: WireJson) => [item.orderRef, item.access]);
}

async function exported(who: Who, query: Array<[string, string]> = []): Promise<Array<[string, string]>> {
  const response = await listAs(who, query, { accept: 'text/csv' });
  expectStatus(response, 200);
  return csvRecords(response.body).records.map((record) => [record.orderRef!, record.access!]);
}

beforeAll(async () => {
  owner = await newPartner(server, client, { name: 'Owner Sales', type: CompanyType.SalesCompany });
  listed = await newPartner(server, client, { name: 'Listed Agency', type: CompanyType.TravelAgency });
  stranger = await newPartner(server, client, { name: 'Stranger Agency', type: CompanyType.TravelAgency });
  ownerTravellerName = `Ownerly Traveller ${Date.now()}`;
  for (const who of ['owner', 'listed', 'stranger'] as const) {
    const touristId = await newTraveller(
      server,
      partner(who).companyId,
      who === 'owner' ? { name: ownerTravellerName } : {},
    );
    const extra = who === 'owner' ? { travelCompanyIds: [listed.companyId] } : {};
    const single = await client.op('createOrders', 'POST', ORDERS, lowTrek(touristId, extra), {
      token: partner(who).token,
    });
    const orderRefs = [single.body.data.orderRef];
    if (who === 'owner') {
      ownerPolicyless = { orderRef: single.body.data.orderRef, orderNumber: single.body.data.orderNumber };
      const group = await client.op(
        'createOrders',
        'POST',
        ORDERS,
        [lowTrek(touristId, extra), lowTrek(touristId, extra)],
        { token: owner.token },
      );
      ownerGroupRef = group.body.data.groupRef;
      orderRefs.push(...group.body.data.orders.map((order: WireJson) => order.orderRef));
    }
    own[who] = { orderRefs, touristId, quoteId: (await everestQuote(client, partner(who))).quoteId };
  }
});

const sorted = (pairs: Array<[string, string]>) => [...pairs].sort(([a], [b]) => a.localeCompare(b));
const as = (access: string, refs: string[]) => refs.map((ref): [string, string] => [ref, access]);

describe('who sees which orders in the order book', () => {
  it('the owner sees its orders as OWNER and nothing of the listed agency or the stranger', async () => {
    expect(sorted(await visible('owner'))).toEqual(sorted(as('OWNER', own.owner.orderRefs)));
    expect(sorted(await exported('owner'))).toEqual(sorted(as('OWNER', own.owner.orderRefs)));
  });

  it('the listed agency sees its own orders as OWNER and the orders listing it as LISTED_AGENCY, nothing of the stranger', async () => {
    const expected = sorted([...as('OWNER', own.listed.orderRefs), ...as('LISTED_AGENCY', own.owner.orderRefs)]);
    expect(sorted(await visible('listed'))).toEqual(expected);
    expect(sorted(await exported('listed'))).toEqual(expected);
  });

  it('the stranger sees only its own orders, in the list and in the export', async () => {
    expect(await visible('stranger')).toEqual(as('OWNER', own.stranger.orderRefs));
    expect(await exported('stranger')).toEqual(as('OWNER', own.stranger.orderRefs));
  });

  it("no filter reaches another company's orders: reference, order number, traveller name, touristId and groupRef find nothing for the stranger", async () => {
    const probes: Array<Array<[string, string]>> = [
      [['search', ownerPolicyless.orderRef]],
      [['search', ownerPolicyless.orderNumber]],
      [['search', ownerTravellerName]],
      [['touristId', own.owner.touristId]],
      [['groupRef', ownerGroupRef]],
    ];
    for (const query of probes) {
      expect({ query, visible: await visible('stranger', query) }).toEqual({ query, visible: [] });
      expect({ query, exported: await exported('stranger', query) }).toEqual({ query, exported: [] });
      expect((await listAs('stranger', query)).body.data.totalElements).toBe(0);
    }
  });

  it('the same filters find the orders for the owner (OWNER) and the listed agency (LISTED_AGENCY)', async () => {
    for (const [who, access] of [
      ['owner', 'OWNER'],
      ['listed', 'LISTED_AGENCY'],
    ] as const) {
      expect(await visible(who, [['search', ownerPolicyless.orderRef]])).toEqual([[ownerPolicyless.orderRef, access]]);
      expect(sorted(await visible(who, [['search', ownerTravellerName]]))).toEqual(
        sorted(as(access, own.owner.orderRefs)),
      );
      expect(sorted(await exported(who, [['groupRef', ownerGroupRef]]))).toEqual(
        sorted(as(access, own.owner.orderRefs.slice(1))),
      );
    }
  });
});

describe('who reads which quote back', () => {
  const readQuote = (who: Who, quoteId: string) =>
    client.op('getQuote', 'GET', `${QUOTE}/${quoteId}`, undefined, { token: partner(who).token });

  it("each company reads its own quote; the owner's quote is a 404 to the listed agency and to the stranger, like an unknown id", async () => {
    for (const who of ['owner', 'listed', 'stranger'] as const) {
      for (const other of ['owner', 'listed', 'stranger'] as const) {
        const response = await readQuote(who, own[other].quoteId);
        expect({ who, other, status: response.status }).toEqual({ who, other, status: who === other ? 200 : 404 });
        if (who !== other) expect(response.body.message).toBe(`Quote ${own[other].quoteId} not found`);
      }
    }
  });
});
