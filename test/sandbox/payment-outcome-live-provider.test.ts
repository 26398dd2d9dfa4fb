import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { newPartner, type TestPartner } from '../support/partners';
import { ledgerOf, pay, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * The sandbox helper answers only for the sandbox gateway: on a sandbox server whose card gateway
 * is Khalti (here its simulator), a Khalti payment is a 409 SANDBOX_PROVIDER_REQUIRED, and the
 * payment stays as Khalti left it.
 */
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;
let partner: TestPartner;

beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const { server, client } = useTestServer({
  env: () => ({ ...simulatedProvidersEnv(khalti, esewa), PAYMENT_PROVIDER_TIMEOUT_MS: '2000' }),
});
beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Khalti Sandbox Treks' });
});
afterAll(async () => {
  await Promise.all([khalti?.stop(), esewa?.stop()]);
});

describe("POST /sandbox/payments/{paymentRef}/outcome on a live provider's payment", () => {
  it('when Khalti took the payment, then 409 SANDBOX_PROVIDER_REQUIRED and nothing changes', async () => {
    const order = await placeOrder(server, client, partner);
    const started = await pay(client, partner, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(started, 200);
    const { paymentRef } = started.body.data;
    const response = await client.op(
      'setSandboxPaymentOutcome',
      'POST',
      `/api/external/v1/sandbox/payments/${paymentRef}/outcome`,
      { outcome: 'CAPTURED' },
      { token: partner.token },
    );
    expectStatus(response, 409);
    expect(response.body).toMatchObject({
      code: 'SANDBOX_PROVIDER_REQUIRED',
      message: `Payment ${paymentRef} was taken by khalti, not by the sandbox gateway`,
    });
    expect((await ledgerOf(server, order.orderId)).attempts).toMatchObject([{ paymentRef, status: 'INITIATED' }]);
  });
});
