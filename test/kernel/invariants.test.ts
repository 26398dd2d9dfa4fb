import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { recordCashPayment } from '../../src/modules/payments/cash-settlement';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  decideSandboxRefundsOf,
  deliverCallback,
  pay,
  placeGroup,
  placeOrder,
  submitCheckout,
} from '../support/payment-fixtures';
import { newCode, newSalesCompany, orderPromoPath } from '../support/promo-fixtures';
import { captured } from '../support/elements';
import { useTestServer } from '../support/test-server';

/** scripts/check-invariants.mjs, the checker the concurrency and fault runs end with, on this file's own database. */
const CHECKER = path.resolve(__dirname, '../../scripts/check-invariants.mjs');
const run = promisify(execFile);

async function checkInvariants(): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [CHECKER], { env: { ...process.env, DATABASE_URL: databaseUrl() } });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

let partner: TestPartner;

const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'invariants' });
beforeAll(async () => {
  partner = await newPartner(server, client);
});

describe('the invariant checker', () => {
  let code: string;

  it('finds nothing wrong after paid orders, a paid group and promo codes applied and removed', async () => {
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!);
    const group = await placeGroup(server, client, partner, 2);
    const groupPay = await client.op(
      'payGroup',
      'POST',
      `/api/external/v1/orders/groups/${group.groupRef}/pay`,
      { gateway: 'card_gateway' },
      { token: partner.token, headers: { 'idempotency-key': crypto.randomUUID() } },
    );
    await deliverCallback(client, (await submitCheckout(groupPay.body.data.paymentUrl, APPROVE_CARD)).callbackUrl!);
    code = await newCode(server, await newSalesCompany(server), { usageLimit: 5 });
    const promoted = await placeOrder(server, client, partner);
    const removed = await placeOrder(server, client, partner);
    await client.op(
      'applyOrderPromo',
      'POST',
      orderPromoPath(promoted.orderRef),
      { promoCode: code },
      { token: partner.token },
    );
    await client.op(
      'applyOrderPromo',
      'POST',
      orderPromoPath(removed.orderRef),
      { promoCode: code },
      { token: partner.token },
    );
    await client.op('removeOrderPromo', 'DELETE', orderPromoPath(removed.orderRef), undefined, {
      token: partner.token,
    });

    const result = await checkInvariants();
    expect(result.output).toContain('invariants: 0 violations');
    expect(result.code).toBe(0);
    // It looked at what this test wrote: three paid orders (one alone, two in a group), one held slot.
    const counts = JSON.parse(captured(/invariants: (\{.*\})/.exec(result.output), 1, 'the invariants line'));
    expect(counts.paidOrders).toBeGreaterThanOrEqual(3);
    expect(counts.promoSlots).toBeGreaterThanOrEqual(1);
  });

  it('finds nothing wrong after the operator records cash for a CASH order and cancels orders holding promo codes, one with an open payment', async () => {
    const owner = await newSalesCompany(server);
    const cashCode = await newCode(server, owner, { usageLimit: 5 });
    const cancelCode = await newCode(server, owner, { usageLimit: 5 });
    const cash = await placeOrder(server, client, partner, { settlementType: 'CASH', promoCode: cashCode });
    await recordCashPayment(
      server.orm.em.fork(),
      cash.orderRef,
      { amount: Math.round(cash.totalAmount * 100) },
      'operator-cli:test',
    );
    const held = await placeOrder(server, client, partner, { promoCode: cancelCode });
    const open = await placeOrder(server, client, partner, { promoCode: cancelCode });
    await pay(client, partner, open.orderRef, { gateway: 'wallet_gateway' });
    await cancelFromCommandLine(server.orm.em.fork(), held.orderRef, 'operator-cli:test', server.payments);
    await cancelFromCommandLine(server.orm.em.fork(), open.orderNumber, 'operator-cli:test', server.payments);

    const result = await checkInvariants();
    expect(result.output).toContain('invariants: 0 violations');
    expect(result.code).toBe(0);
    // The cash order keeps its code (it is paid with it); both cancelled orders gave theirs back.
    const em = server.orm.em.fork();
    const uses = await em
      .getConnection()
      .execute<Array<{ code: string; used_count: number }>>(
        `select code, used_count from promo_code where code in (?, ?) order by code`,
        [cashCode, cancelCode],
      );
    expect(Object.fromEntries(uses.map((row) => [row.code, Number(row.used_count)]))).toEqual({
      [cashCode]: 1,
      [cancelCode]: 0,
    });
  });

  it('exits 1 and names the violation when a promo count drifts from its slots or an order is PAID without a payment', async () => {
    const em = server.orm.em.fork();
    await em.getConnection().execute(`update promo_code set used_count = used_count + 1 where code = ?`, [code]);
    const unpaid = await placeOrder(server, client, partner);
    await em
      .getConnection()
      .execute(`update insurance_order set status = 'PAID', paid_at = now() where id = ?`, [unpaid.orderId]);
    try {
      const result = await checkInvariants();
      expect(result.code).toBe(1);
      expect(result.output).toContain('promo code whose used_count differs');
      expect(result.output).toContain(unpaid.orderRef);
    } finally {
      await em.getConnection().execute(`update promo_code set used_count = used_count - 1 where code = ?`, [code]);
      await em
        .getConnection()
        .execute(`update insurance_order set status = 'PENDING', paid_at = null where id = ?`, [unpaid.orderId]);
    }
    expect((await checkInvariants()).code).toBe(0);
  });

  it('exits 1 when a payment reads SUCCESS beside an unpaid order, or captured money is neither paying an order nor owed back', async () => {
    const em = server.orm.em.fork();
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!);
    await em
      .getConnection()
      .execute(`update insurance_order set status = 'PENDING', paid_at = null where id = ?`, [order.orderId]);
    await em
      .getConnection()
      .execute(`update payment_attempt_order set settlement = null where order_id = ?`, [order.orderId]);
    try {
      const result = await checkInvariants();
      expect(result.code).toBe(1);
      expect(result.output).toContain('attempt status that says more or less than its shares');
      expect(result.output).toContain('captured money neither paying an order nor recorded as owed back or refunded');
      expect(result.output).toContain(started.paymentRef);
    } finally {
      await em
        .getConnection()
        .execute(`update payment_attempt_order set settlement = 'PAID' where order_id = ?`, [order.orderId]);
      await em
        .getConnection()
        .execute(`update insurance_order set status = 'PAID', paid_at = now() where id = ?`, [order.orderId]);
    }
  });

  it('exits 1 when refunds give back more than a share, or a refund stays FAILED beside a full reversal at the provider', async () => {
    const em = server.orm.em.fork();
    const order = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!);
    await cancelFromCommandLine(
      server.orm.em.fork(),
      order.orderRef,
      'operator-cli:invariants',
      server.payments,
      undefined,
      'trip called off',
    );
    await server.refunds.runOnce();
    await decideSandboxRefundsOf(client, partner, order.orderRef);
    expect((await checkInvariants()).output).toContain('invariants: 0 violations');
    await em.getConnection().execute(`update refund set amount = amount + 1 where order_id = ?`, [order.orderId]);
    try {
      const result = await checkInvariants();
      expect(result.code).toBe(1);
      expect(result.output).toContain('order share whose SUCCEEDED refunds add up to more than the share captured');
    } finally {
      await em.getConnection().execute(`update refund set amount = amount - 1 where order_id = ?`, [order.orderId]);
    }
    // Decision 0091: a refund the operator has still to make (MANUAL) holds its part of the share too.
    await em
      .getConnection()
      .execute(`update refund set amount = amount + 1, status = 'MANUAL' where order_id = ?`, [order.orderId]);
    try {
      const result = await checkInvariants();
      expect(result.code).toBe(1);
      expect(result.output).toContain(
        'order share whose refunds not FAILED (SUCCEEDED, PENDING, MANUAL) add up to more than the share captured',
      );
    } finally {
      await em
        .getConnection()
        .execute(`update refund set amount = amount - 1, status = 'SUCCEEDED' where order_id = ?`, [order.orderId]);
    }
    await em.getConnection().execute(`update refund set status = 'FAILED' where order_id = ?`, [order.orderId]);
    await em
      .getConnection()
      .execute(`update payment_attempt set provider_reversal = 'FULL' where payment_ref = ?`, [started.paymentRef]);
    try {
      const result = await checkInvariants();
      expect(result.code).toBe(1);
      expect(result.output).toContain('FAILED refund of a payment the provider reversed in full');
    } finally {
      await em
        .getConnection()
        .execute(`update payment_attempt set provider_reversal = null where payment_ref = ?`, [started.paymentRef]);
      await em.getConnection().execute(`update refund set status = 'SUCCEEDED' where order_id = ?`, [order.orderId]);
    }
  });

  it('exits 1 when the counters behind totalElements drift from the orders and travellers they count', async () => {
    const em = server.orm.em.fork();
    await em
      .getConnection()
      .execute(`update order_status_count set orders = orders + 1 where company_id = ?`, [partner.companyId]);
    await em
      .getConnection()
      .execute(`update traveller_count set travellers = travellers + 1 where company_id = ?`, [partner.companyId]);
    try {
      const result = await checkInvariants();
      expect(result.code).toBe(1);
      expect(result.output).toContain(
        'order counter per (company, status, payment status) that differs from its orders',
      );
      expect(result.output).toContain('traveller counter of a company that differs from its travellers');
    } finally {
      await em
        .getConnection()
        .execute(`update order_status_count set orders = orders - 1 where company_id = ?`, [partner.companyId]);
      await em
        .getConnection()
        .execute(`update traveller_count set travellers = travellers - 1 where company_id = ?`, [partner.companyId]);
    }
    expect((await checkInvariants()).code).toBe(0);
  });
});
