import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../../src/config';
import { createLogger } from '../../src/kernel/logging/logger';
import { ProviderUnavailableError } from '../../src/kernel/errors';
import { KhaltiGateway } from '../../src/modules/payments/providers/khalti/khalti-gateway';
import { refundLeaseSeconds, worstRefundTryMs } from '../../src/modules/refunds/rules/refund-life';
import { liveProvidersEnv } from '../support/live-providers-env';

/**
 * Issue 52, items 3 and 8 (decision 0091): the executor's claim on a refund outlasts its worst
 * try at Khalti for every allowed PAYMENT_PROVIDER_LOOKUP_ATTEMPTS and PAYMENT_PROVIDER_TIMEOUT_MS,
 * so no second process sends a second refund call while the first is still at Khalti; and
 * production refuses REFUND_INTERVAL_SECONDS=0, which would leave nothing to retry a refund.
 */

/**
 * A Khalti that leaves unanswered every try of a lookup but the last, answers that one just before
 * the caller's timeout, and never answers the refund call.
 */
let khalti: http.Server;
const triesOf = new Map<string, number>();
let lookupAttempts = 1;
let answerAfterMs = 0;
beforeAll(async () => {
  khalti = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      if (path.endsWith('/refund/')) return; // never answered: the caller's timeout ends it
      const tries = (triesOf.get(path) ?? 0) + 1;
      triesOf.set(path, tries);
      if (tries < lookupAttempts) return;
      const body =
        path === '/api/v2/epayment/lookup/'
          ? { pidx: 'P1', total_amount: 450000, status: 'Completed', transaction_id: 'T1', fee: 0, refunded: false }
          : { idx: 'T1', type: { name: 'Wallet payment' }, state: { name: 'Completed' } };
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
        answerAfterMs,
      );
    });
  });
  await new Promise<void>((resolve) => khalti.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  khalti.closeAllConnections();
  await new Promise<void>((resolve) => khalti.close(() => resolve()));
});

function gateway(timeoutMs: number, attempts: number): KhaltiGateway {
  const base = `http://127.0.0.1:${(khalti.address() as AddressInfo).port}/api/v2`;
  return new KhaltiGateway(
    'card_gateway',
    { secretKey: 'test_secret_key', baseUrl: base, websiteUrl: 'https://agency.example.com', linkMinutes: 60 },
    () => 'https://agency.example.com/back',
    { timeoutMs, lookupAttempts: attempts, logger: createLogger('silent') },
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
  amount: 200000,
  retry: false,
  refundedBefore: 0,
};

describe("the refund executor's claim covers its worst Khalti try (issue 52, item 3)", () => {
  it('measures the worst try: every lookup answered only at its last attempt, just in time, the refund call never answered — within worstRefundTryMs', async () => {
    const [timeoutMs, attempts] = [250, 3];
    lookupAttempts = attempts;
    answerAfterMs = timeoutMs - 60;
    triesOf.clear();
    const started = performance.now();
    await expect(gateway(timeoutMs, attempts).refund(request)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const elapsed = performance.now() - started;
    // Both lookups (the payment, the transaction's funding) ran all their attempts: this is the worst sequence.
    expect([...triesOf.values()]).toEqual([attempts, attempts]);
    const worst = worstRefundTryMs(attempts, timeoutMs);
    expect(elapsed).toBeGreaterThan(worst - 250);
    expect(elapsed).toBeLessThan(worst + 1000);
  });

  it('leases a claim for longer than that worst try for every allowed setting (the review: 5 attempts of 12 s each outlived the 114 s lease)', () => {
    expect(refundLeaseSeconds(5, 12_000) * 1000).toBeGreaterThan(worstRefundTryMs(5, 12_000));
    expect(worstRefundTryMs(5, 12_000)).toBe(11 * 12_000 + 2 * 1000);
    for (let attempts = 1; attempts <= 5; attempts += 1)
      for (const timeoutMs of [100, 1000, 8000, 12_000, 30_000, 60_000])
        expect(refundLeaseSeconds(attempts, timeoutMs) * 1000).toBeGreaterThanOrEqual(
          worstRefundTryMs(attempts, timeoutMs) + 30_000,
        );
  });
});

describe('REFUND_INTERVAL_SECONDS=0 in production (issue 52, item 8)', () => {
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('is refused: nothing would retry a refund its first try could not make', () => {
    expect(problemsOf({ NODE_ENV: 'production', ...liveProvidersEnv(), REFUND_INTERVAL_SECONDS: '0' })).toEqual([
      'REFUND_INTERVAL_SECONDS=0 is not allowed when NODE_ENV=production: nothing would retry a refund its first try could not make',
    ]);
    expect(problemsOf({ NODE_ENV: 'production', ...liveProvidersEnv(), REFUND_INTERVAL_SECONDS: '15' })).toEqual([]);
    expect(loadConfig({ REFUND_INTERVAL_SECONDS: '0' }).payments.refundIntervalSeconds).toBe(0);
  });
});
