import { randomUUID } from 'node:crypto';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { backfillAttemptProviders } from '../../src/modules/payments/attempt-provider-backfill';
import { gatewayOfAttempt } from '../../src/modules/payments/payment-deps';
import { ProviderUnavailableError } from '../../src/kernel/errors';
import type { RunningServer } from '../../src/server';
import { ApiClient } from '../support/http-client';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, paymentStatus, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { deliverReturn, khaltiCheckout } from '../support/provider-browser';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { startTestServer, useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * An attempt records the provider that took it (decision record 0075): after the
 * operator moves card_gateway from Khalti to eSewa, the payments Khalti took are still looked up
 * and refunded at Khalti, while new payments go to eSewa.
 */
let partner: TestPartner;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;
let switched: RunningServer | undefined;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const quiet = {
  PAYMENT_PROVIDER_TIMEOUT_MS: '2000',
  PAYMENT_RECONCILE_AFTER_SECONDS: '0',
  RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
  REFUND_INTERVAL_SECONDS: '0',
};
const { server, client, databaseUrl } = useTestServer({
  ownDatabase: 'attempt_provider',
  env: () => ({ ...simulatedProvidersEnv(khalti, esewa), ...quiet }),
});
beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Provider Switch Treks Pvt. Ltd.' });
});
afterAll(async () => {
  await switched?.stop();
  await Promise.all([khalti?.stop(), esewa?.stop()]);
});

/** The same database, with card_gateway moved to eSewa and Khalti's key still set. */
async function startSwitched(): Promise<{ server: RunningServer; client: ApiClient }> {
  switched = await startTestServer({
    ...simulatedProvidersEnv(khalti, esewa),
    ...quiet,
    DATABASE_URL: databaseUrl(),
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
    CARD_GATEWAY_PROVIDER: 'esewa',
  });
  switched.payments.kickRefunds = undefined;
  return { server: switched, client: new ApiClient(switched.url) };
}

const attemptOf = (paymentRef: string) => server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef });

describe('the provider of a payment attempt', () => {
  it('when card_gateway moves from Khalti to eSewa, then Khalti payments are still looked up and refunded at Khalti, and new card payments go to eSewa', async () => {
    const paid = await placeOrder(server, client, partner);
    const paidStart = (await pay(client, partner, paid.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }))
      .body.data;
    expectStatus(await deliverReturn(client, await khaltiCheckout(paidStart.paymentUrl, { action: 'pay' })), 303);
    const open = await placeOrder(server, client, partner);
    const openStart = (await pay(client, partner, open.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }))
      .body.data;
    expect(await attemptOf(openStart.paymentRef)).toMatchObject({ gateway: 'card_gateway', provider: 'khalti' });

    const after = await startSwitched();
    // The open Khalti checkout is paid at Khalti; payment-status asks Khalti, not eSewa.
    const simulated = khalti.byOrder(openStart.paymentRef);
    khalti.setStatus(simulated.pidx, 'Completed');
    const lookupsBefore = simulated.lookups;
    const status = await paymentStatus(after.client, partner, open.orderRef);
    expectStatus(status, 200);
    expect(status.body.data).toMatchObject({ paymentStatus: 'SUCCESS' });
    expect(simulated.lookups).toBeGreaterThan(lookupsBefore);
    expect(esewa.statusCalls.get(openStart.paymentRef)).toBeUndefined();

    // The paid one's refund is made through Khalti's refund API.
    const callsBefore = khalti.refunds.calls;
    const cancelled = await after.client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${encodeURIComponent(paid.orderRef)}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(cancelled, 200);
    expect(cancelled.body.data.refund).toMatchObject({ status: 'PENDING', gateway: 'CARD_GATEWAY' });
    await after.server.refunds.runOnce();
    expect(khalti.refunds.calls).toBe(callsBefore + 1);
    expect(
      await after.server.orm.em.fork().findOneOrFail(Refund, { order: { orderRef: paid.orderRef } }),
    ).toMatchObject({ status: 'SUCCEEDED', provider: 'khalti' });

    // A new card payment goes to the provider configured now.
    const fresh = await placeOrder(after.server, after.client, partner);
    const freshStart = (
      await pay(after.client, partner, fresh.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })
    ).body.data;
    expect(await attemptOf(freshStart.paymentRef)).toMatchObject({ gateway: 'card_gateway', provider: 'esewa' });
  });

  it("when the provider that took an attempt has no settings any more, then asking about it is a provider-unavailable answer, never a question to the gateway's provider of today", () => {
    const today = server.payments.gateways.get('card_gateway');
    const registry = { get: () => today, of: () => undefined, size: 1 };
    expect(() => gatewayOfAttempt({ gateways: registry }, { gateway: 'card_gateway', provider: 'khalti' })).toThrow(
      ProviderUnavailableError,
    );
    expect(gatewayOfAttempt({ gateways: registry }, { gateway: 'card_gateway', provider: null })).toBe(today);
  });

  it('when attempts made before providers were recorded are back-filled, then each takes the provider configured for its gateway, and a named one keeps its own', async () => {
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'wallet_gateway', returnUrl: RETURN_URL }))
      .body.data;
    const other = await placeOrder(server, client, partner);
    const named = (await pay(client, partner, other.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })).body
      .data;
    await server.orm.em.fork().nativeUpdate(PaymentAttempt, { paymentRef: started.paymentRef }, { provider: null });
    const filled = await backfillAttemptProviders(server.orm.em.fork(), {
      providers: { card_gateway: 'sandbox', wallet_gateway: 'esewa' },
    });
    expect(filled).toBe(1);
    expect(await attemptOf(started.paymentRef)).toMatchObject({ provider: 'esewa' });
    expect(await attemptOf(named.paymentRef)).toMatchObject({ provider: 'khalti' });
  });
});
