import { randomUUID } from 'node:crypto';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import {
  InvalidCallbackError,
  type GatewayName,
  type PaymentGateway,
  type ReturnQuery,
} from '../../src/modules/payments/providers/gateway';
import type { RunningServer } from '../../src/server';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, APPROVE_WALLET, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { esewaCheckout, khaltiCheckout } from '../support/provider-browser';
import { startTestServer } from '../support/test-server';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { expectStatus } from '../support/expect-status';

/**
 * The gateway port's contract, one suite for every adapter: the sandbox's card gateway (which
 * can void) and wallet gateway (which cannot), Khalti and eSewa (through their simulators). Each
 * case acts through the API (pay) and the provider's page like a customer, then asks the adapter
 * itself what the port promises.
 */
interface Served {
  server: RunningServer;
  client: ApiClient;
  partner: TestPartner;
}

let sandbox: Served;
let providers: Served;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;

async function serve(env: Record<string, string>): Promise<Served> {
  const server = await startTestServer({ PAYMENT_RECONCILE_INTERVAL_SECONDS: '0', ...env });
  const client = new ApiClient(server.url);
  return { server, client, partner: await newPartner(server, client) };
}

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
  sandbox = await serve({});
  providers = await serve({
    ...simulatedProvidersEnv(khalti, esewa),
    PAYMENT_PROVIDER_TIMEOUT_MS: '2000',
  });
});
afterAll(async () => {
  await Promise.all([sandbox?.server.stop(), providers?.server.stop()]);
  await Promise.all([khalti?.stop(), esewa?.stop()]);
});

type Choice = 'pay' | 'cancel';
const queryOf = (url: URL): ReturnQuery => Object.fromEntries(url.searchParams.entries());

interface Driver {
  label: string;
  gateway: GatewayName;
  served: () => Served;
  /** Whether the provider can void an open payment (otherwise its void answers from a lookup). */
  canVoid: boolean;
  /** The customer decides on the provider's page; the query of the browser return that follows. */
  decide(paymentUrl: string, choice: Choice): Promise<ReturnQuery>;
}

const sandboxDecision = (approve: Record<string, string>) => async (paymentUrl: string, choice: Choice) => {
  const checkout = await submitCheckout(paymentUrl, choice === 'pay' ? approve : { action: 'cancel' });
  return queryOf(checkout.callbackUrl!);
};

const DRIVERS: Driver[] = [
  {
    label: 'sandbox card gateway',
    gateway: 'card_gateway',
    served: () => sandbox,
    canVoid: true,
    decide: sandboxDecision(APPROVE_CARD),
  },
  {
    label: 'sandbox wallet gateway',
    gateway: 'wallet_gateway',
    served: () => sandbox,
    canVoid: false,
    decide: sandboxDecision(APPROVE_WALLET),
  },
  {
    label: 'Khalti ePayment',
    gateway: 'card_gateway',
    served: () => providers,
    canVoid: false,
    decide: async (url, choice) => queryOf(await khaltiCheckout(url, { action: choice })),
  },
  {
    label: 'eSewa ePay v2',
    gateway: 'wallet_gateway',
    served: () => providers,
    canVoid: false,
    decide: async (url, choice) => queryOf(await esewaCheckout(url, choice)),
  },
];

describe.each(DRIVERS)('the gateway port: $label', (driver) => {
  const adapter = (): PaymentGateway => driver.served().server.gateways.registry.get(driver.gateway)!;
  const attemptOf = (paymentRef: string) =>
    driver.served().server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef });
  const started = async (key = randomUUID()) => {
    const { server, client, partner } = driver.served();
    const order = await placeOrder(server, client, partner);
    const response = await pay(client, partner, order.orderRef, { gateway: driver.gateway }, key);
    expectStatus(response, 200);
    return { ...response.body.data, key, orderRef: order.orderRef };
  };

  it('start hands out one checkout page per attempt, stored with it: the same key answers the same page', async () => {
    const payment = await started();
    expect((await attemptOf(payment.paymentRef)).checkoutUrl).toBe(payment.paymentUrl);
    const { client, partner } = driver.served();
    expect(
      (await pay(client, partner, payment.orderRef, { gateway: driver.gateway }, payment.key)).body.data.paymentUrl,
    ).toBe(payment.paymentUrl);
  });

  it('lookup of a payment nobody decided yet is undecided', async () => {
    const payment = await started();
    expect(await adapter().lookupStatus(await attemptOf(payment.paymentRef))).toEqual({ decided: false });
  });

  it("a paid return is confirmed as SUCCESS for the attempt's amount in paisa; lookup and void then report the same capture", async () => {
    const payment = await started();
    const query = await driver.decide(payment.paymentUrl, 'pay');
    const attempt = await attemptOf(payment.paymentRef);
    const confirmed = await adapter().confirmReturn(query, attempt);
    expect(confirmed).toMatchObject({
      decided: true,
      report: { paymentRef: payment.paymentRef, status: 'SUCCESS', amount: attempt.amount, currency: 'NPR' },
    });
    expect(attempt.amount).toBe(450000);
    expect(await adapter().lookupStatus(attempt)).toMatchObject({
      decided: true,
      report: { status: 'SUCCESS', amount: attempt.amount },
    });
    expect(await adapter().voidPayment(attempt)).toMatchObject({
      kind: 'DECIDED',
      report: { status: 'SUCCESS', amount: attempt.amount },
    });
  });

  it('a return about another payment is refused (InvalidCallbackError)', async () => {
    const paid = await started();
    const other = await started();
    const query = await driver.decide(paid.paymentUrl, 'pay');
    await expect(adapter().confirmReturn(query, await attemptOf(other.paymentRef))).rejects.toBeInstanceOf(
      InvalidCallbackError,
    );
  });

  it('a cancelled checkout is confirmed as CANCELLED', async () => {
    const payment = await started();
    const query = await driver.decide(payment.paymentUrl, 'cancel');
    expect(await adapter().confirmReturn(query, await attemptOf(payment.paymentRef))).toMatchObject({
      decided: true,
      report: { status: 'CANCELLED' },
    });
  });

  it(`void of an open payment is ${driver.canVoid ? 'VOIDED' : 'UNDECIDED (the provider cannot void; a capture may still come)'}`, async () => {
    const payment = await started();
    expect(await adapter().voidPayment(await attemptOf(payment.paymentRef))).toEqual({
      kind: driver.canVoid ? 'VOIDED' : 'UNDECIDED',
    });
  });
});
