import { Quote } from '../../src/modules/catalogue/entities/quote';
import { ORDERS, QUOTE, everestQuote, orderFromQuote } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

/** GET /reference/quote/{quoteId}: a company reads back its own quote as the quote answer had it, with its current status. */
const { server, client } = useTestServer();
let partner: TestPartner;

const readBack = (quoteId: string, token = partner.token) =>
  client.op('getQuote', 'GET', `${QUOTE}/${quoteId}`, undefined, { token });

beforeAll(async () => {
  partner = await newPartner(server, client);
});

describe('GET /reference/quote/{quoteId}', () => {
  it('answers an ACTIVE quote exactly as its creation did', async () => {
    const created = await everestQuote(client, partner);
    const response = await readBack(created.quoteId);
    expectStatus(response, 200);
    expect(response.body.message).toBe('Quote retrieved');
    expect(response.body.data).toEqual(created);
    expect(response.body.data.quoteStatus).toBe('ACTIVE');
  });

  it('reads EXPIRED once validUntil has passed, with validUntil unchanged', async () => {
    const created = await everestQuote(client, partner);
    const em = server.orm.em.fork();
    const expiresAt = new Date(Date.now() - 1000);
    await em.nativeUpdate(Quote, { id: created.quoteId }, { expiresAt });
    const response = await readBack(created.quoteId);
    expect(response.body.data).toEqual({ ...created, quoteStatus: 'EXPIRED', validUntil: expiresAt.toISOString() });
  });

  it('reads USED once an order was made from it', async () => {
    const created = await everestQuote(client, partner);
    const touristId = await newTraveller(server, partner.companyId, { dateOfBirth: '1992-01-01' });
    const order = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(created, touristId), {
      token: partner.token,
    });
    expectStatus(order, 201);
    expect((await readBack(created.quoteId)).body.data.quoteStatus).toBe('USED');
  });

  it('is a 404 for an unknown id and for the quote of another company, and a 400 for an id that is no UUID', async () => {
    const other = await newPartner(server, client);
    const theirs = await everestQuote(client, other);
    expectStatus(await readBack(theirs.quoteId), 404);
    expectStatus(await readBack('6f1c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f'), 404);
    const malformed = await readBack('not-a-uuid');
    expectStatus(malformed, 400);
    expect(Object.keys(malformed.body.details.fieldErrors)).toContain('quoteId');
  });
});
