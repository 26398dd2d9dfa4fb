import { randomUUID } from 'node:crypto';
import { addDays } from '../../src/kernel/business-date';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { opsOutput } from '../support/built-cli';
import { buildServer } from '../support/built-server';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { readPdf } from '../support/certificate-pdf';
import { serverBehind } from '../support/prism';
import { expectSchema } from '../support/contract';
import { until } from '../support/eventually';
import { expectStatus } from '../support/expect-status';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { groupPayPath, RETURN_URL } from '../support/payment-fixtures';
import { deliverReturn, khaltiCheckout } from '../support/provider-browser';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';
import { startEsewaSimulator, type EsewaSimulator } from '../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../simulators/simulator-server';
import { webhookApi } from '../webhooks/webhook-api';

/**
 * Issue 49's process figure: a group of four on the Everest Base Camp route (area LUKLA) paid with
 * one Khalti payment; the operator declares a Lukla weather disruption (`ops disruption declare`,
 * decision record 0102); two members are extended free under it, a third by a top-up paid through
 * Khalti (decision record 0099); then the operator cancels the whole group (`ops order cancel`).
 * Every payment goes back through Khalti, the provider that took it, the commission earned on each
 * is reversed, and the certificates and the verify page named each version while the covers ran.
 * Every webhook reaches the agency's endpoint and verifies with the official `standardwebhooks`
 * library, in its documented shape.
 */

// Every operator step is an `ops` process start, and four Khalti refunds wait for the executor.
jest.setTimeout(300_000);

let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;
beforeAll(async () => {
  [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
});
const providers = () => ({
  ...simulatedProvidersEnv(khalti, esewa),
  PAYMENT_PROVIDER_TIMEOUT_MS: '2000',
  RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
});
const { server, client, databaseUrl } = useTestServer({
  backgroundJobs: true,
  env: () => ({ ...providers(), REFUND_INTERVAL_SECONDS: '1', REFUND_RETRY_BASE_SECONDS: '1' }),
});
const receiver = new WebhookReceiver();
let agency: TestPartner;

afterAll(() => Promise.all([receiver.stop(), khalti?.stop(), esewa?.stop()]));

const operator = (...args: string[]) => opsOutput(databaseUrl(), args, providers());

beforeAll(async () => {
  buildServer();
  agency = await newPartner(server, client, { name: 'Lukla Weather Group Treks Pvt. Ltd.' });
  const created = await webhookApi(client).create(agency, { url: await receiver.start(), events: ['*'] });
  if (created.status !== 201) throw new Error(`endpoint not registered: ${JSON.stringify(created.body)}`);
  receiver.secret = created.body.data.secret;
}, 120_000);

const SCHEMAS: Record<string, string> = {
  'order.paid': 'OrderPaidEvent',
  'disruption.declared': 'DisruptionDeclaredEvent',
  'order.extended': 'OrderExtendedEvent',
  'order.cancelled': 'OrderCancelledEvent',
  'refund.succeeded': 'RefundSucceededEvent',
};

/** The top-up (or group) checkout on Khalti's page, paid, and the return delivered to the service. */
async function payOnKhalti(paymentUrl: string): Promise<void> {
  expectStatus(await deliverReturn(client, await khaltiCheckout(paymentUrl, { action: 'pay' })), 303);
}

const order = (orderRef: string) =>
  client.op('getOrder', 'GET', `${ORDERS}/${encodeURIComponent(orderRef)}`, undefined, { token: agency.token });

describe('a Lukla weather extension for a group, from the booking to the refunds', () => {
  it('four paid on Khalti, a Lukla disruption declared, two extended free, one by a Khalti top-up, the group cancelled by the operator: every payment refunded through Khalti, commission reversed, every version on paper, every webhook signed', async () => {
    // The group: four travellers on the Everest Base Camp route, 14 days, one Khalti payment.
    const travellers = await Promise.all([0, 1, 2, 3].map(() => newTraveller(server, agency.companyId)));
    const created = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      travellers.map((touristId) => ({
        touristId,
        ctgId: CTGS.standard5500,
        routeId: ROUTES.everestBaseCamp,
        departureDate: departure,
      })),
      { token: agency.token },
    );
    expectStatus(created, 201);
    const { groupRef } = created.body.data;
    const members: string[] = created.body.data.orders.map((placed: { orderRef: string }) => placed.orderRef);
    const paying = await client.op(
      'payGroup',
      'POST',
      groupPayPath(groupRef),
      { gateway: 'card_gateway', returnUrl: RETURN_URL },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(paying, 200);
    await payOnKhalti(paying.body.data.paymentUrl);
    for (const member of members) expect((await order(member)).body.data.status).toBe('PAID');
    const lastDay = (await order(members[0] as string)).body.data.coverageEndDate as string;

    // Lukla grounded around the covers' last day: up to five days free.
    const declared = JSON.parse(
      await operator(
        'disruption',
        'declare',
        '--area',
        'LUKLA',
        '--from',
        addDays(lastDay, -2),
        '--to',
        addDays(lastDay, 2),
        '--max-days',
        '5',
        '--note',
        'Lukla flights grounded by low cloud',
        '--json',
      ),
    ) as { disruptionId: string };
    const { disruptionId } = declared;

    const [first, second, third, fourth] = members as [string, string, string, string];
    const extend = (orderRef: string, body: Record<string, unknown>) =>
      client.op('extendOrder', 'POST', `${ORDERS}/${orderRef}/extension`, body, {
        token: agency.token,
        headers: { 'idempotency-key': randomUUID() },
      });
    for (const member of [first, second]) {
      const free = await extend(member, { disruptionId, coverageEndDate: addDays(lastDay, 3) });
      expectStatus(free, 200);
      expect(free.body.data).toMatchObject({ status: 'APPLIED', amountDue: 0, disruptionId });
    }
    const paid = await extend(third, {
      coverageEndDate: addDays(lastDay, 4),
      gateway: 'card_gateway',
      returnUrl: RETURN_URL,
    });
    expectStatus(paid, 200);
    expect(paid.body.data.status).toBe('AWAITING_PAYMENT');
    await payOnKhalti(paid.body.data.paymentUrl);
    await until(
      () => 'the top-up applied',
      async () => (await order(third)).body.data.coverageEndDate === addDays(lastDay, 4),
    );
    expect((await order(first)).body.data.coverageEndDate).toBe(addDays(lastDay, 3));
    expect((await order(fourth)).body.data.coverageEndDate).toBe(lastDay);

    // While the covers run, the papers name each version: the certificate and the verify page.
    for (const [member, words] of [
      [first, `cover extended under the Lukla disruption ${disruptionId}`],
      [third, `cover extended from ${lastDay} to ${addDays(lastDay, 4)}`],
    ] as const) {
      const certificate = await fetch(new URL(`${ORDERS}/${member}/certificate`, serverBehind(server.url)), {
        headers: { authorization: `Bearer ${agency.token}` },
      });
      expectStatus(certificate, 200);
      const text = (await readPdf(Buffer.from(await certificate.arrayBuffer()))).text.replace(/\s+/g, ' ');
      expect(text).toContain('Version 2');
      expect(text).toContain(words);
      const policyNumber = (await order(member)).body.data.policyNumber as string;
      const page = await client.op('verifyPolicy', 'GET', `/verify/${policyNumber}`, undefined, { direct: true });
      expectStatus(page, 200);
      expect(String(page.body)).toContain(member === first ? addDays(lastDay, 3) : addDays(lastDay, 4));
    }

    // The operator cancels the whole group: each member's share of the group payment and the top-up go back through Khalti.
    for (const member of members)
      await operator('order', 'cancel', member, '--note', 'Trek abandoned after the Lukla closure');
    const refunds = () =>
      server.orm.em.fork().find(Refund, { order: { orderRef: { $in: members } } }, { populate: ['attempt'] });
    await until(
      () => 'every refund SUCCEEDED',
      async () => {
        const rows = await refunds();
        return rows.length === 5 && rows.every((refund) => refund.status === 'SUCCEEDED');
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const rows = await refunds();
    expect(new Set(rows.map((refund) => refund.attempt.gateway))).toEqual(new Set(['card_gateway']));
    expect(rows.filter((refund) => refund.attempt.paymentRef === paid.body.data.paymentRef)).toHaveLength(1);
    // Khalti gave back exactly what the refunds say: the group's four shares and the top-up, less the fees.
    const given = rows.reduce((sum, refund) => sum + refund.amount, 0);
    const atKhalti = [...khalti.payments.values()].reduce((sum, payment) => sum + payment.refunded, 0);
    expect(atKhalti).toBe(given);

    for (const member of members) {
      const detail = (await order(member)).body.data;
      expect(detail.status).toBe('CANCELLED');
      const lines = detail.commissionLines as Array<{ kind: string; amount: number; paymentRef: string }>;
      const earned = lines.filter((line) => line.kind === 'EARNED').reduce((sum, line) => sum + line.amount, 0);
      const reversed = lines.filter((line) => line.kind === 'REVERSED').reduce((sum, line) => sum + line.amount, 0);
      // A reversal is a negative line: what the refunded money had earned, the cancellation fee's part kept.
      expect(earned).toBeGreaterThan(0);
      expect(reversed).toBeLessThan(0);
      expect(-reversed).toBeLessThanOrEqual(earned);
    }

    const ours = () =>
      receiver
        .unique()
        .filter((event) => members.includes(String(event.data.orderRef)) || event.data.disruptionId === disruptionId);
    await receiver.waitFor(
      () =>
        ours().filter((event) => event.type === 'refund.succeeded').length === 5 &&
        ours().filter((event) => event.type === 'order.cancelled').length === 4,
      60_000,
    );
    const count = (type: string) => ours().filter((event) => event.type === type).length;
    expect({
      paid: count('order.paid'),
      declared: count('disruption.declared'),
      extended: count('order.extended'),
      cancelled: count('order.cancelled'),
      refunded: count('refund.succeeded'),
    }).toEqual({ paid: 4, declared: 1, extended: 3, cancelled: 4, refunded: 5 });
    for (const event of ours()) if (SCHEMAS[event.type]) expectSchema(SCHEMAS[event.type] as string, event);
    expect(receiver.rejected).toBe(0);
  });
});
