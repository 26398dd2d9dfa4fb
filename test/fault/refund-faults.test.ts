import { randomUUID } from 'node:crypto';
import type { Orm } from '../../src/kernel/db/orm';
import { ApiClient } from '../support/http-client';
import type { TestPartner } from '../support/partners';
import { ORDERS } from '../support/order-fixtures';
import { pay, RETURN_URL } from '../support/payment-fixtures';
import { createOrder } from '../support/promo-fixtures';
import { deliverReturn, khaltiCheckout } from '../support/provider-browser';
import { newTraveller } from '../support/traveller-fixtures';
import type { EsewaSimulator } from '../simulators/esewa-simulator';
import type { KhaltiSimulator } from '../simulators/khalti-simulator';
import { checkInvariants } from './support/database-checks';
import { ServerFleet } from './support/server-fleet';
import type { ThrowawayPostgres } from './support/throwaway-postgres';
import { startRefundFleet, stopRefundFleet } from './support/refund-fleet';
import { expectStatus } from '../support/expect-status';

// Refunds under faults (issue 28): two built processes with card_gateway on the Khalti simulator;
// orders paid on Khalti are cancelled through one process, which is killed with SIGKILL right
// after (its refunds in flight), then PostgreSQL restarts. Every refund must end SUCCEEDED with
// exactly one refund call per refund at the simulator (it counts them).

const ORDERS_COUNT = 6;
let postgres: ThrowawayPostgres;
let fleet: ServerFleet;
let orm: Orm;
let khalti: KhaltiSimulator;
let esewa: EsewaSimulator;
let clients: ApiClient[];
let partner: TestPartner;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  ({ khalti, esewa, postgres, fleet, orm, clients, partner } = await startRefundFleet(
    {
      PAYMENT_PROVIDER_TIMEOUT_MS: '1000',
      PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
    },
    2,
  ));
});
afterAll(() => stopRefundFleet({ khalti, esewa, postgres, fleet, orm }));

describe('refunds under faults', () => {
  it('ends every refund SUCCEEDED with exactly one Khalti refund call each, through a kill -9 of the process making them and a PostgreSQL restart', async () => {
    const touristId = await newTraveller({ orm }, partner.companyId);
    const paid: Array<{ orderRef: string; transactionId: string }> = [];
    for (let i = 0; i < ORDERS_COUNT; i++) {
      const order = await createOrder(clients[1]!, partner, touristId);
      const started = (
        await pay(clients[1]!, partner, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL })
      ).body.data;
      expectStatus(await deliverReturn(clients[1]!, await khaltiCheckout(started.paymentUrl, { action: 'pay' })), 303);
      paid.push({ orderRef: order.orderRef, transactionId: khalti.byOrder(started.paymentRef).transactionId! });
    }
    // Khalti answers slowly (the refund made, its answer 600 ms later): refunds are in flight when the process making them is killed.
    khalti.refunds.delayMs = 600;
    const answers = await Promise.all(
      paid.map(({ orderRef }) =>
        clients[0]!.op(
          'cancelOrder',
          'POST',
          `${ORDERS}/${orderRef}/cancellation`,
          { reason: 'TRIP_CANCELLED' },
          { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(ORDERS_COUNT).fill(200));
    await sleep(300);
    const callsBeforeKill = khalti.refunds.calls;
    await fleet.kill(0);
    await fleet.restart(0);
    await postgres.down();
    await sleep(3000);
    await postgres.up();

    const deadline = Date.now() + 150_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      statuses = (
        await orm.em.fork().getConnection().execute<Array<{ status: string }>>(`select status from refund`)
      ).map((row) => row.status);
      if (statuses.length === ORDERS_COUNT && statuses.every((status) => status === 'SUCCEEDED')) break;
      await sleep(1000);
    }
    console.info(
      `refund faults: ${JSON.stringify({ callsBeforeKill, refunds: statuses.length, statuses, refundCalls: khalti.refunds.calls, perTransaction: paid.map((p) => khalti.refunds.callsByTransaction.get(p.transactionId) ?? 0) })}`,
    );
    expect(statuses).toEqual(Array(ORDERS_COUNT).fill('SUCCEEDED'));
    // The kill did land while a refund was at Khalti, made and not yet answered.
    expect(callsBeforeKill).toBeGreaterThan(0);
    expect(paid.map((p) => khalti.refunds.callsByTransaction.get(p.transactionId) ?? 0)).toEqual(
      Array(ORDERS_COUNT).fill(1),
    );
    for (const { transactionId } of paid)
      expect([...khalti.payments.values()].find((p) => p.transactionId === transactionId)?.status).toBe('Refunded');
    const report = await checkInvariants(postgres.url);
    expect(report.violations).toBe(0);
  });
});
