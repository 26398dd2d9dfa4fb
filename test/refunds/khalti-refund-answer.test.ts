import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../src/kernel/logging/logger';
import { KhaltiGateway } from '../../src/modules/payments/providers/khalti/khalti-gateway';
import { ProviderUnavailableError } from '../../src/kernel/errors';

/**
 * Khalti's refund call (issue 36, item 11): any 2xx is Khalti's yes. Its documents show 200; a
 * 201 or 204 (a proxy, a new API version) must not turn a refund that was made into a refusal.
 */
let server: http.Server;
let refundStatus = 200;
let refundCalls = 0;
/** What the lookup answers: the payment, or Khalti's 400 that is no lookup of it. */
let lookupAnswer: 'payment' | 'not found' = 'payment';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/api/v2/epayment/lookup/' && lookupAnswer === 'not found') {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: 'Not found.', error_key: 'validation_error' }));
        return;
      }
      if (req.url === '/api/v2/epayment/lookup/') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            pidx: 'P1',
            total_amount: 450000,
            status: 'Completed',
            transaction_id: 'T1',
            fee: 0,
            refunded: false,
          }),
        );
        return;
      }
      // Khalti's transaction record (how the payment was funded): none here, so no mobile is needed.
      if (!req.url?.endsWith('/refund/')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not found.' }));
        return;
      }
      refundCalls += 1;
      if (refundStatus === 204) res.writeHead(204).end();
      else
        res
          .writeHead(refundStatus, { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: 'Transaction refund successful.' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function gateway(): KhaltiGateway {
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
  return new KhaltiGateway(
    'card_gateway',
    { secretKey: 'test_secret_key', baseUrl: base, websiteUrl: 'https://agency.example.com', linkMinutes: 60 },
    () => 'https://agency.example.com/back',
    {
      timeoutMs: 2000,
      lookupAttempts: 1,
      logger: createLogger('silent'),
    },
  );
}

const request = {
  refundRef: 'RFD-2030-000017',
  payment: {
    paymentRef: 'ORD-2030-000142-1',
    providerRef: 'P1',
    amount: 450000,
    currency: 'NPR',
    gatewayTransactionId: 'T1',
  },
  amount: 450000,
  retry: false,
  refundedBefore: 0,
};

describe("Khalti's refund call", () => {
  it.each([200, 201, 202, 204])('counts HTTP %i as the money going back', async (status) => {
    refundStatus = status;
    const before = refundCalls;
    await expect(gateway().refund(request)).resolves.toEqual({ kind: 'REFUNDED', providerRefundRef: 'khalti:T1' });
    expect(refundCalls - before).toBe(1);
  });

  it('still takes a 4xx as a refusal', async () => {
    refundStatus = 400;
    await expect(gateway().refund(request)).resolves.toMatchObject({ kind: 'REFUSED' });
  });
});

describe("Khalti's lookup before a refund", () => {
  afterEach(() => {
    lookupAnswer = 'payment';
  });

  it('when the lookup answers 400 {"detail":"Not found.","error_key":"validation_error"}, then the refund is unreadable and tried again (nothing sent), never refused', async () => {
    lookupAnswer = 'not found';
    refundStatus = 200;
    const before = refundCalls;
    const tried = gateway().refund(request);
    await expect(tried).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(tried).rejects.toMatchObject({ kind: 'BAD_ANSWER', nothingSent: true });
    expect(refundCalls).toBe(before);
  });

  it('reads that answer the same way in lookupStatus: unreadable, never a final word', async () => {
    lookupAnswer = 'not found';
    await expect(gateway().lookupStatus(request.payment)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});
