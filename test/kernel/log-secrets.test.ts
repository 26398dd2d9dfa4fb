import { Writable } from 'node:stream';
import { createLogger } from '../../src/kernel/logging/logger';
import { registerTraveller } from '../support/documents';
import { everestQuote, ORDERS, orderFromQuote } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  CALLBACK,
  deliverCallback,
  pay,
  submitCheckout,
} from '../support/payment-fixtures';
import { newCode, newSalesCompany, orderPromoPath } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

// The server's real logger (its redaction rules included) at the chattiest level, writing into
// this test instead of stdout, over a complete partner flow; then every line is searched for
// what must never be logged.
const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

let partner: TestPartner;
const secrets = new Map<string, string>();

const { server, client } = useTestServer({
  env: { LOG_LEVEL: 'trace', PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' },
  logger: createLogger('trace', capture),
});
beforeAll(async () => {
  partner = await newPartner(server, client);
});

/** Every string anywhere in a parsed log line, with the key it sits under. */
function* strings(value: unknown, key = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [key, value];
  else if (Array.isArray(value)) for (const item of value) yield* strings(item, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* strings(v, k);
}

describe('what the logs never hold', () => {
  it('a full flow at LOG_LEVEL=trace (token, quote, upload, register, order, promo, card and wallet payments, callbacks, refused credentials) logs no secret, token, signature, card number or PIN', async () => {
    const token = await client.op('issueToken', 'POST', '/api/external/v1/auth/token', {
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
    });
    expectStatus(token, 200);
    const accessToken = token.body.data.accessToken as string;
    secrets
      .set('client secret', partner.clientSecret)
      .set('access token', accessToken)
      .set('earlier access token', partner.token);
    const auth = { token: accessToken };

    const quote = await everestQuote(client, { ...partner, token: accessToken });
    const touristId = await registerTraveller(client, auth);
    const ordered = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(quote, touristId), auth);
    expectStatus(ordered, 201);
    const code = await newCode(server, await newSalesCompany(server), { usageLimit: 5 });
    expectStatus(
      await client.op('applyOrderPromo', 'POST', orderPromoPath(ordered.body.data.orderRef), { promoCode: code }, auth),
      200,
    );

    const byCard = (
      await pay(client, { ...partner, token: accessToken }, ordered.body.data.orderRef, { gateway: 'card_gateway' })
    ).body.data;
    const cardCheckout = await submitCheckout(byCard.paymentUrl, APPROVE_CARD);
    expectStatus(await deliverCallback(client, cardCheckout.callbackUrl!), 200);
    secrets.set('callback signature', cardCheckout.callbackUrl!.searchParams.get('signature')!);
    secrets.set('card gateway HMAC secret', server.gateways.sandbox.get('card_gateway')!.secretForSigning());

    const second = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      orderFromQuote(await everestQuote(client, { ...partner, token: accessToken }), touristId),
      auth,
    );
    const byWallet = (
      await pay(client, { ...partner, token: accessToken }, second.body.data.orderRef, { gateway: 'wallet_gateway' })
    ).body.data;
    const walletCheckout = await submitCheckout(byWallet.paymentUrl, APPROVE_WALLET);
    expectStatus(await deliverCallback(client, walletCheckout.callbackUrl!), 200);
    secrets.set('wallet callback signature', walletCheckout.callbackUrl!.searchParams.get('signature')!);
    secrets.set('wallet gateway HMAC secret', server.gateways.sandbox.get('wallet_gateway')!.secretForSigning());

    // Refusals log too: a wrong secret, a forged token, a forged callback signature.
    const wrongSecret = `${partner.clientSecret}-guess`;
    expectStatus(
      await client.op('issueToken', 'POST', '/api/external/v1/auth/token', {
        clientId: partner.clientId,
        clientSecret: wrongSecret,
      }),
      401,
    );
    const forgedToken = `${accessToken.slice(0, -4)}AAAA`;
    expectStatus(
      await client.op('listCtgs', 'GET', '/api/external/v1/reference/ctgs', undefined, { token: forgedToken }),
      401,
    );
    const forgedSignature = 'f'.repeat(64);
    const forged = Object.fromEntries(cardCheckout.callbackUrl!.searchParams.entries());
    expectStatus(
      await client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, {
        query: { ...forged, signature: forgedSignature },
        direct: true,
      }),
      400,
    );
    secrets
      .set('guessed secret', wrongSecret)
      .set('forged token', forgedToken)
      .set('forged signature', forgedSignature);
    secrets
      .set('card number', APPROVE_CARD.cardNumber)
      .set('card number without spaces', APPROVE_CARD.cardNumber.replace(/ /g, ''));

    await new Promise((resolve) => setImmediate(resolve));
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // The capture saw the run: a request line per call, at least.
    expect(parsed.filter((line) => line.msg === 'request').length).toBeGreaterThanOrEqual(15);

    const leaks: string[] = [];
    for (const line of lines)
      for (const [name, secret] of secrets) if (line.includes(secret)) leaks.push(`${name} in ${line.slice(0, 300)}`);
    for (const line of parsed) {
      for (const [key, value] of strings(line)) {
        // Short instrument data (PIN 1234, CVC 123) is too common a substring to grep for; no field holds it.
        if (/pin|cvc|cvv|card|wallet/i.test(key)) leaks.push(`field ${key}=${value}`);
        if (value === APPROVE_WALLET.pin || value === APPROVE_CARD.cvc) leaks.push(`${key}=${value}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
