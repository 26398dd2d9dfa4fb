import { randomUUID } from 'node:crypto';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { SalesAgent } from '../../src/modules/partners/entities/sales-agent';
import { Order } from '../../src/modules/orders/entities/order';
import { Refund } from '../../src/modules/refunds/entities/refund';
import { refundWrites } from '../../src/modules/payments/refund-writes';
import { CommissionEntry } from '../../src/modules/commissions/entities/commission-entry';
import { confirmRefund, confirmRefundsOfPayment } from '../../src/modules/refunds/refund-operations';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { lockAttemptForSettlement } from '../../src/modules/payments/settlement';
import { recordProviderReversal } from '../../src/modules/payments/provider-reversal';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  decideSandboxRefundsOf,
  deliverCallback,
  groupPayPath,
  pay,
  placeGroup,
  placeOrder,
  submitCheckout,
} from '../support/payment-fixtures';
import { newAgent, newCode } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let seller: TestPartner;
let listed: TestPartner;

beforeAll(async () => {
  seller = await newPartner(server, client, { name: 'Khumbu Commission Treks', commissionPercent: '10.00' });
  listed = await newPartner(server, client, {
    name: 'Listed Commission Agency',
    type: CompanyType.TravelAgency,
    commissionPercent: '5.00',
  });
});

const cancel = (orderRef: string) =>
  client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${encodeURIComponent(orderRef)}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: seller.token, headers: { 'idempotency-key': randomUUID() } },
  );

async function paidBy(orderRef: string, gateway: 'card_gateway' | 'wallet_gateway' = 'card_gateway') {
  const started = (await pay(client, seller, orderRef, { gateway })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, gateway === 'card_gateway' ? APPROVE_CARD : APPROVE_WALLET);
  expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
  return started.paymentRef as string;
}

/** The order's ledger lines as [kind, role, earner company, amount in paisa], oldest first. */
async function linesOf(orderId: string) {
  const entries = await server.orm.em
    .fork()
    .find(CommissionEntry, { order: orderId }, { orderBy: { occurredAt: 'asc', kind: 'asc', role: 'desc' } });
  return entries.map((entry) => [entry.kind, entry.role, entry.company.id, entry.amount]);
}

async function entriesOf(orderId: string) {
  return server.orm.em
    .fork()
    .find(CommissionEntry, { order: orderId }, { orderBy: { occurredAt: 'asc', kind: 'asc', role: 'desc' } });
}

describe('the commission ledger', () => {
  it('writes one EARNED line per earner when a card payment makes the order PAID: the seller 10 % and the listed agency 5 % of 4,500.00', async () => {
    const order = await placeOrder(server, client, seller, { travelCompanyIds: [listed.companyId] });
    const paymentRef = await paidBy(order.orderRef);
    const entries = await entriesOf(order.orderId);
    expect(entries.map((entry) => [entry.kind, entry.role, entry.company.id, entry.amount])).toEqual([
      ['EARNED', 'SELLER', seller.companyId, 450_00],
      ['EARNED', 'LISTED_AGENCY', listed.companyId, 225_00],
    ]);
    const paid = await server.orm.em.fork().findOneOrFail(Order, order.orderId);
    expect(entries[0]).toMatchObject({
      paymentRef,
      policyNumber: paid.policyNumber,
      share: 4500_00,
      base: 4500_00,
      percent: '10.00',
      capPercent: '35.00',
      capped: false,
    });
    expect(entries[0]!.period).toBe(
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kathmandu', year: 'numeric', month: '2-digit' }).format(
        paid.paidAt,
      ),
    );
  });

  it('writes the EARNED lines of a cash order in the transaction the operator records the cash', async () => {
    const order = await placeOrder(server, client, seller, { settlementType: 'CASH' });
    expect(await linesOf(order.orderId)).toEqual([]);
    const { attempt } = await recordCashPayment(
      server.orm.em.fork(),
      order.orderRef,
      { amount: 4500_00 },
      'operator-cli:test',
    );
    expect(await linesOf(order.orderId)).toEqual([['EARNED', 'SELLER', seller.companyId, 450_00]]);
    expect((await entriesOf(order.orderId))[0]!.paymentRef).toBe(attempt.paymentRef);
  });

  it("earns on the premium after an agent code, and the agent earns its own percent on its sales company's statement", async () => {
    const agent = await newAgent(server);
    await server.orm.em.fork().nativeUpdate(SalesAgent, { id: agent.id }, { commissionPercent: '2.00' });
    const code = await newCode(server, agent, { percent: 10 });
    const order = await placeOrder(server, client, seller, { promoCode: code });
    await paidBy(order.orderRef);
    const agentRow = await server.orm.em.fork().findOneOrFail(SalesAgent, agent.id);
    // 4,500.00 less 10 % is a premium of 4,050.00: the seller 10 % = 405.00, the agent 2 % = 81.00
    expect(await linesOf(order.orderId)).toEqual([
      ['EARNED', 'SELLER', seller.companyId, 405_00],
      ['EARNED', 'AGENT', agentRow.company.id, 81_00],
    ]);
  });

  it('scales the earners down pro rata when together they would take more than the cap: 20 % + 20 % of 4,500.00 become 17.5 % each', async () => {
    const greedy = await newPartner(server, client, { commissionPercent: '20.00' });
    const greedyAgency = await newPartner(server, client, {
      type: CompanyType.TravelAgency,
      commissionPercent: '20.00',
    });
    const order = await placeOrder(server, client, greedy, { travelCompanyIds: [greedyAgency.companyId] });
    const started = (await pay(client, greedy, order.orderRef, { gateway: 'card_gateway' })).body.data;
    expectStatus(
      await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!),
      200,
    );
    const entries = await entriesOf(order.orderId);
    expect(entries.map((entry) => [entry.role, entry.percent, entry.capped, entry.amount])).toEqual([
      ['SELLER', '20.00', true, 787_50],
      ['LISTED_AGENCY', '20.00', true, 787_50],
    ]);
  });

  it('takes everything back when the whole share is refunded (a cancellation in the free look)', async () => {
    const order = await placeOrder(server, client, seller, { travelCompanyIds: [listed.companyId] });
    await paidBy(order.orderRef);
    expectStatus(await cancel(order.orderRef), 200);
    // The refund is not back yet: nothing is reversed until it succeeds.
    expect((await linesOf(order.orderId)).filter(([kind]) => kind === 'REVERSED')).toEqual([]);
    await server.refunds.runOnce();
    await decideSandboxRefundsOf(client, seller, order.orderRef);
    const entries = await entriesOf(order.orderId);
    const refund = await server.orm.em.fork().findOneOrFail(Refund, { order: order.orderId });
    expect(
      entries.filter((entry) => entry.kind === 'REVERSED').map((entry) => [entry.role, entry.amount, entry.refundRef]),
    ).toEqual([
      ['SELLER', -450_00, refund.refundRef],
      ['LISTED_AGENCY', -225_00, refund.refundRef],
    ]);
    expect(entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(0);
  });

  it("takes back the refund's proportion of the share when a cancellation fee is kept: 4,050.00 of 4,500.00 back, 45.00 of 450.00 kept", async () => {
    const order = await placeOrder(server, client, seller, { travelCompanyIds: [listed.companyId] });
    await paidBy(order.orderRef);
    await server.orm.em
      .fork()
      .nativeUpdate(Order, { id: order.orderId }, { paidAt: new Date(Date.now() - 20 * 86_400_000) });
    expect((await cancel(order.orderRef)).body.data.refund).toMatchObject({ amount: 4050, cancellationFee: 450 });
    await server.refunds.runOnce();
    await decideSandboxRefundsOf(client, seller, order.orderRef);
    expect(
      (await linesOf(order.orderId))
        .filter(([kind]) => kind === 'REVERSED')
        .map(([, role, , amount]) => [role, amount]),
    ).toEqual([
      ['SELLER', -405_00],
      ['LISTED_AGENCY', -202_50],
    ]);
  });

  it('takes back everything a payment the provider reversed in full had earned', async () => {
    const order = await placeOrder(server, client, seller);
    const paymentRef = await paidBy(order.orderRef);
    await server.orm.em.fork().transactional(async (tx) => {
      const { id } = await tx.findOneOrFail(PaymentAttempt, { paymentRef });
      const attempt = await lockAttemptForSettlement(tx, id);
      await recordProviderReversal(tx, attempt, 'FULL', 'PROVIDER-RFD-1', new Date(), server.payments);
    });
    expect(await linesOf(order.orderId)).toEqual([
      ['EARNED', 'SELLER', seller.companyId, 450_00],
      ['REVERSED', 'SELLER', seller.companyId, -450_00],
    ]);
  });

  it('gives each order of a group payment its own lines on its own share, and a cancelled member reverses only its own', async () => {
    const { groupRef, orders } = await placeGroup(server, client, seller, 3);
    const started = (
      await client.op(
        'payGroup',
        'POST',
        groupPayPath(groupRef),
        { gateway: 'card_gateway' },
        { token: seller.token, headers: { 'idempotency-key': randomUUID() } },
      )
    ).body.data;
    expectStatus(
      await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!),
      200,
    );
    for (const member of orders) {
      const entries = await entriesOf(member.orderId);
      expect(entries.map((entry) => [entry.kind, entry.share, entry.amount, entry.paymentRef])).toEqual([
        ['EARNED', 4500_00, 450_00, started.paymentRef],
      ]);
    }
    expectStatus(await cancel(orders[0]!.orderRef), 200);
    await server.refunds.runOnce();
    await decideSandboxRefundsOf(client, seller, orders[0]!.orderRef);
    expect((await linesOf(orders[0]!.orderId)).map(([kind, , , amount]) => [kind, amount])).toEqual([
      ['EARNED', 450_00],
      ['REVERSED', -450_00],
    ]);
    expect((await linesOf(orders[1]!.orderId)).map(([kind, , , amount]) => [kind, amount])).toEqual([
      ['EARNED', 450_00],
    ]);
  });

  it("puts a refund that succeeds in the month after the sale in that month: the sale's month keeps its EARNED line unchanged", async () => {
    const order = await placeOrder(server, client, seller, { travelCompanyIds: [listed.companyId] });
    await paidBy(order.orderRef, 'wallet_gateway');
    const answer = await cancel(order.orderRef);
    expect(answer.body.data.refund.status).toBe('MANUAL');
    const nextMonth = new Date(Date.now() + 35 * 86_400_000);
    await confirmRefund(
      server.orm.em.fork(),
      { refundWrites },
      answer.body.data.refund.refundRef,
      'WALLET-RFD-1',
      'operator-cli:test',
      nextMonth,
    );
    const entries = await entriesOf(order.orderId);
    const earned = entries.filter((entry) => entry.kind === 'EARNED');
    const reversed = entries.filter((entry) => entry.kind === 'REVERSED');
    expect(reversed.map((entry) => entry.amount)).toEqual([-450_00, -225_00]);
    expect(reversed[0]!.period > earned[0]!.period).toBe(true);
    expect(reversed[0]!.occurredAt.toISOString()).toBe(nextMonth.toISOString());
  });

  it('takes back the commission of a cancellation refund the operator records with ops payment refund', async () => {
    const order = await placeOrder(server, client, seller);
    const paymentRef = await paidBy(order.orderRef, 'wallet_gateway');
    expect((await cancel(order.orderRef)).body.data.refund.status).toBe('MANUAL');
    await confirmRefundsOfPayment(
      server.orm.em.fork(),
      { refundWrites },
      paymentRef,
      'WALLET-RFD-3',
      'operator-cli:test',
    );
    expect((await linesOf(order.orderId)).map(([kind, , , amount]) => [kind, amount])).toEqual([
      ['EARNED', 450_00],
      ['REVERSED', -450_00],
    ]);
  });

  it('is append-only: the database refuses to change or delete a line', async () => {
    const order = await placeOrder(server, client, seller);
    await paidBy(order.orderRef);
    const em = server.orm.em.fork();
    await expect(em.nativeUpdate(CommissionEntry, { order: order.orderId }, { amount: 1 })).rejects.toThrow(
      /never changed or deleted/,
    );
    await expect(em.nativeDelete(CommissionEntry, { order: order.orderId })).rejects.toThrow(
      /never changed or deleted/,
    );
    expect(await linesOf(order.orderId)).toEqual([['EARNED', 'SELLER', seller.companyId, 450_00]]);
  });
});
