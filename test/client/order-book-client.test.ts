import { Readable } from 'node:stream';
import { createPartnerClient, ListPageError } from '../../clients/typescript/src';
import { csvRecords } from '../support/csv';
import { newPartner, type TestPartner } from '../support/partners';
import { placeOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/** The typed client's order book: listOrders walks every page, exportOrdersCsv streams the CSV. */
const { server, client } = useTestServer();
let partner: TestPartner;
const refs: string[] = [];

const typedClient = () =>
  createPartnerClient({ baseUrl: server.url, clientId: partner.clientId, clientSecret: partner.clientSecret });

beforeAll(async () => {
  partner = await newPartner(server, client);
  for (let i = 0; i < 5; i++) refs.unshift((await placeOrder(server, client, partner)).orderRef);
});

describe('listOrders and exportOrdersCsv of the typed client', () => {
  it('listOrders yields every order, newest first, across pages, and stops after the last', async () => {
    const orderRefs: string[] = [];
    for await (const order of typedClient().listOrders({ size: 2 })) orderRefs.push(order.orderRef);
    expect(orderRefs).toEqual(refs);
  });

  it('listOrders keeps the order asked (sortBy, sortDir) across pages', async () => {
    const orderRefs: string[] = [];
    for await (const order of typedClient().listOrders({ size: 2, sortBy: 'createdAt', sortDir: 'asc' }))
      orderRefs.push(order.orderRef);
    expect(orderRefs).toEqual([...refs].reverse());
  });

  it('listOrdersPage answers one page; a filter out of bounds is an error result, and throws ListPageError when iterating', async () => {
    const { data } = await typedClient().listOrdersPage({ size: 1, page: 1 });
    expect(data?.data.content.map((order) => order.orderRef)).toEqual([refs[1]]);
    const refused = await typedClient().listOrdersPage({ departureFrom: '2031-10-31', departureTo: '2031-10-01' });
    expectStatus(refused.response, 400);
    await expect(typedClient().listOrders({ search: 'x' }).next()).rejects.toBeInstanceOf(ListPageError);
  });

  it('exportOrdersCsv streams every matching order with the suggested file name', async () => {
    const result = await typedClient().exportOrdersCsv({ status: ['PENDING'] });
    if (!result.ok) throw new Error(`export failed: ${result.response.status}`);
    expect(result.fileName).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
    let text = '';
    for await (const chunk of Readable.fromWeb(result.stream)) text += String(chunk);
    expect(csvRecords(text).records.map((record) => record.orderRef)).toEqual(refs);
    const refused = await typedClient().exportOrdersCsv({ search: ' ' });
    expect(refused.ok).toBe(false);
    expectStatus(refused, 400);
  });
});
