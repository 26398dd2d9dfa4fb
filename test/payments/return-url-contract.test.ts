import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import type { WireJson } from '../support/http-client';
import { newPartner } from '../support/partners';
import { pay, placeOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Issue 30, item 17: the partner contract says `returnUrl` is HTTPS, but the schema said only `format: uri`,
 * so a partner's generated validator passed `http://`. The rule is in the schema now; the
 * operator's internal test setting (ALLOW_HTTP_RETURN_URL) relaxes the document the server
 * loads and serves, instead of the contract being loose for everyone.
 */
const returnUrlSchema = (document: WireJson) => document.components.schemas.PayRequest.properties.returnUrl;

describe('the contract of returnUrl', () => {
  it("refuses http:// and takes https:// in a partner's own JSON Schema 2020-12 validator", () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const valid = ajv.compile(returnUrlSchema(loadSpecDocument()));
    expect(valid('http://booking.example.com/done')).toBe(false);
    expect(valid('https://booking.example.com/done')).toBe(true);
  });
});

describe('a server with the default settings', () => {
  const { server, client } = useTestServer();

  it('serves the document with the https pattern and refuses an http returnUrl with a 400 naming it', async () => {
    const served = await client.call('GET', '/api/external/v1/openapi.json');
    expect(returnUrlSchema(served.body).pattern).toBe('^https://');
    const partner = await newPartner(server, client);
    const order = await placeOrder(server, client, partner);
    const response = await pay(client, partner, order.orderRef, {
      gateway: 'card_gateway',
      returnUrl: 'http://booking.example.com/done',
    });
    expectStatus(response, 400);
    expect(response.body.details.fieldErrors).toEqual({ returnUrl: 'must be an https URL' });
  });
});

describe("a server of the operator's internal test environment (ALLOW_HTTP_RETURN_URL=true)", () => {
  const { server, client } = useTestServer({ env: { ALLOW_HTTP_RETURN_URL: 'true' } });

  it('serves the document without the pattern, and starts a payment with an http returnUrl', async () => {
    const served = await client.call('GET', '/api/external/v1/openapi.json');
    expect(returnUrlSchema(served.body).pattern).toBeUndefined();
    expect(returnUrlSchema(served.body).format).toBe('uri');
    const partner = await newPartner(server, client);
    const order = await placeOrder(server, client, partner);
    const response = await pay(client, partner, order.orderRef, {
      gateway: 'card_gateway',
      returnUrl: 'http://127.0.0.1:8080/done',
    });
    expectStatus(response, 200);
  });
});
