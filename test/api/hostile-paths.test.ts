import type { RunningServer } from '../../src/server';
import { expectSchema } from '../support/contract';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, placeOrder } from '../support/payment-fixtures';
import { startTestServer } from '../support/test-server';

// Issue 14: the input guards covered the API routes only; a NUL or invalid percent-encoding in the
// path of a sandbox checkout page or of no route at all answered 500.
let server: RunningServer;
let client: ApiClient;
let partner: TestPartner;

beforeAll(async () => {
  server = await startTestServer();
  client = new ApiClient(server.url);
  partner = await newPartner(server, client);
});
afterAll(() => server.stop());

async function expectRefusedInShape2(method: string, path: string, body?: string) {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' };
  const response = await client.call(method, path, undefined, { raw: body, headers, direct: true });
  expect([400, 404]).toContain(response.status);
  expectSchema('ApiError', response.body);
  expect(response.body.status).toBe(response.status);
  return response;
}

describe('hostile paths outside the API routes', () => {
  it.each([
    ['GET', '/sandbox/card_gateway/checkout/ab%00cd'],
    ['POST', '/sandbox/card_gateway/checkout/ab%00cd'],
    ['GET', '/sandbox/wallet_gateway/checkout/%ff%fe'],
    ['GET', '/%ff%fe'],
    ['GET', '/docs%00'],
    ['POST', '/%c0%ae%c0%ae%c0%af'],
    ['GET', '/nowhere/%00'],
  ])('when %s %s, then the answer is a 400 or 404 in shape 2, never a 500', async (method, path) => {
    await expectRefusedInShape2(method, path, method === 'POST' ? 'action=cancel' : undefined);
  });

  it('when a real checkout page is posted a NUL in its form fields, then nothing fails with a 500', async () => {
    const order = await placeOrder(server, client, partner);
    const paymentUrl = new URL((await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data.paymentUrl);
    const response = await client.call('POST', paymentUrl.pathname + paymentUrl.search, undefined, {
      raw: 'action=pay&cardNumber=4242%004242424242424&expiry=12%2F40&cvv=123&holder=A%00B',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      direct: true,
    });
    expect(response.status).toBeLessThan(500);
  });

  it('when an API path holds invalid percent-encoding, then it is still a 400 in shape 2', async () => {
    const response = await expectRefusedInShape2('GET', '/api/external/v1/orders/%ff%fe');
    expect(response.status).toBe(400);
  });
});
