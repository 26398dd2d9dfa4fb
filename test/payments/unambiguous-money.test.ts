import { randomUUID } from 'node:crypto';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { cancelFromCommandLine } from '../../src/cli/operator-cancellation';
import { confirmRefundsOfPayment } from '../../src/modules/refunds/refund-operations';
import { refundWrites } from '../../src/modules/payments/refund-writes';
import { at } from '../support/elements';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  deliverCallback,
  groupPayPath,
  ledgerOf,
  pay,
  paymentStatus,
  placeGroup,
  placeOrder,
  submitCheckout,
} from '../support/payment-fixtures';
import { lowTrek, newCode, newSalesCompany, orderPromoPath } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let agency: TestPartner;
const OPERATOR = 'operator-cli:test';

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Khumbu Money Treks Pvt. Ltd.' });
});

const applyPromo = async (orderRef: string) =>
  client.op(
    'applyOrderPromo',
    'POST',
    orderPromoPath(orderRef),
    { promoCode: await newCode(server, await newSalesCompany(server), { percent: 10 }) },
    { token: agency.token },
  );

const payGroup = (groupRef: string, gateway = 'card_gateway') =>
  client.op(
    'payGroup',
    'POST',
    groupPayPath(groupRef),
    { gateway },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );

/** The customer pays on the hosted page; the browser's way back to our callback is still on its way. */
async function paidOnTheHostedPage(orderRef: string, gateway: 'card_gateway' | 'wallet_gateway' = 'card_gateway') {
  const started = (await pay(client, agency, orderRef, { gateway })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, gateway === 'card_gateway' ? APPROVE_CARD : APPROVE_WALLET);
  expectStatus(checkout, 303);
  return { started, callbackUrl: checkout.callbackUrl! };
}

describe('a capture that lands while the order is being changed', () => {
  it('settles the order PAID by the captured payment and refuses a promo code applied after the customer paid, before the callback arrived', async () => {
    const order = await placeOrder(server, client, agency);
    const { started, callbackUrl } = await paidOnTheHostedPage(order.orderRef);

    const applied = await applyPromo(order.orderRef);
    expectStatus(applied, 400);
    expect(applied.body.message).toBe(
      `Order ${order.orderRef} is PAID: its promo codes can change only while it is pending and unpaid`,
    );

    const status = (await paymentStatus(client, agency, order.orderRef)).body.data;
    expect(status).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: started.paymentRef,
      amount: order.totalAmount,
    });
    const ledger = await ledgerOf(server, order.orderId);
    expect(ledger).toMatchObject({ orderStatus: 'PAID', successes: 1 });
    // The browser arriving afterwards changes nothing: the gateway's word is already recorded.
    expectStatus(await deliverCallback(client, callbackUrl), 400);
    expect(await ledgerOf(server, order.orderId)).toEqual(ledger);
  });

  it("settles the order PAID and refuses the operator's cancellation when the customer had paid the open checkout", async () => {
    const order = await placeOrder(server, client, agency);
    const { started } = await paidOnTheHostedPage(order.orderRef);
    await expect(
      cancelFromCommandLine(server.orm.em.fork(), order.orderRef, OPERATOR, server.payments),
    ).rejects.toThrow(`order ${order.orderRef} is PAID; only a PENDING order can be cancelled`);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: started.paymentRef,
    });
  });

  it('voids an unpaid card checkout before repricing, so the customer can no longer pay the old total', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'card_gateway' })).body.data;
    expectStatus(await applyPromo(order.orderRef), 200);
    expectStatus(await submitCheckout(started.paymentUrl, APPROVE_CARD), 410);
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    expect(attempt).toMatchObject({
      status: 'CANCELLED',
      closedReason: 'ORDER_REPRICED',
      failureReason: 'VOIDED_BY_MERCHANT',
    });
    expect(attempt.gatewayConfirmedAt).toBeInstanceOf(Date);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'CANCELLED',
    });
  });

  it('reads REFUND_PENDING beside a PENDING order, never SUCCESS, when a wallet checkout (which cannot be voided) is paid after a promo change; REFUNDED once the operator records the refund', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' })).body.data;
    const applied = await applyPromo(order.orderRef);
    expectStatus(applied, 200);

    const late = await submitCheckout(started.paymentUrl, APPROVE_WALLET);
    expectStatus(late, 303);
    expectStatus(await deliverCallback(client, late.callbackUrl!), 200);

    const status = (await paymentStatus(client, agency, order.orderRef)).body.data;
    expect(status).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'REFUND_PENDING',
      paymentRef: started.paymentRef,
      amount: order.totalAmount,
    });
    expect(await ledgerOf(server, order.orderId)).toMatchObject({ orderStatus: 'PENDING', successes: 0 });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/payment_refunds_owed_total\{gateway="wallet_gateway"\} [1-9]/);

    // The order is still for sale at its new total.
    const fresh = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
    expectStatus(fresh, 200);
    expect(fresh.body.data.amount).toBe(applied.body.data.totalAfter);

    await confirmRefundsOfPayment(
      server.orm.em.fork(),
      { refundWrites },
      started.paymentRef,
      'WALLET-REFUND-7781',
      OPERATOR,
    );
    expect((await paymentStatus(client, agency, started.paymentRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'INITIATED',
      paymentRef: fresh.body.data.paymentRef,
    });
    const refunded = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    expect(refunded).toMatchObject({
      status: 'REFUNDED',
      refundAmount: Math.round(order.totalAmount * 100),
      refundNote: 'WALLET-REFUND-7781',
    });
  });

  it('reads REFUND_PENDING beside a CANCELLED order when a wallet checkout is paid after the operator cancelled it', async () => {
    const order = await placeOrder(server, client, agency);
    const started = (await pay(client, agency, order.orderRef, { gateway: 'wallet_gateway' })).body.data;
    const cancelled = await cancelFromCommandLine(server.orm.em.fork(), order.orderRef, OPERATOR, server.payments);
    expect(cancelled.closedPaymentRefs).toEqual([started.paymentRef]);
    const late = await submitCheckout(started.paymentUrl, APPROVE_WALLET);
    expectStatus(await deliverCallback(client, late.callbackUrl!), 200);
    expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUND_PENDING',
    });
  });
});

describe('a new Idempotency-Key while an attempt is open', () => {
  it('does not supersede an attempt the gateway already captured: the order is PAID by it and the new pay answers as for a paid order (the customer is charged once)', async () => {
    const order = await placeOrder(server, client, agency);
    const { started } = await paidOnTheHostedPage(order.orderRef);
    const second = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
    expectStatus(second, 400);
    expect(second.body.message).toBe(`Order ${order.orderRef} is already PAID and cannot be paid again`);
    const ledger = await ledgerOf(server, order.orderId);
    expect(ledger.attempts).toEqual([expect.objectContaining({ paymentRef: started.paymentRef, status: 'SUCCESS' })]);
    expect(ledger.successes).toBe(1);
  });

  it('does not supersede a captured group payment from a single order: every order of the group is PAID by it', async () => {
    const group = await placeGroup(server, client, agency, 2);
    const grouped = (await payGroup(group.groupRef)).body.data;
    expectStatus(await submitCheckout(grouped.paymentUrl, APPROVE_CARD), 303);
    expectStatus(
      await pay(client, agency, at(group.orders, 0, 'the group').orderRef, { gateway: 'card_gateway' }),
      400,
    );
    for (const order of group.orders) {
      expect((await paymentStatus(client, agency, order.orderRef)).body.data).toMatchObject({
        orderStatus: 'PAID',
        paymentStatus: 'SUCCESS',
        paymentRef: grouped.paymentRef,
      });
    }
  });
});

describe('group payments', () => {
  it("report each order's own share as its amount, and the shares add up to what the customer was charged", async () => {
    const touristId = await newTraveller(server, agency.companyId);
    const created = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      [
        lowTrek(touristId, { addedServices: [{ name: 'Porter, 8 days', price: 3700 }] }),
        lowTrek(touristId, {
          addedServices: [
            { name: 'Porter, 4 days', price: 1440 },
            { name: 'Duffel bag', price: 720, quantity: 2 },
          ],
        }),
      ],
      { token: agency.token },
    );
    expectStatus(created, 201);
    const [first, second] = created.body.data.orders;
    expect([first.pricing.totalAmount, second.pricing.totalAmount]).toEqual([8200, 7380]);

    const grouped = (await payGroup(created.body.data.groupRef, 'wallet_gateway')).body.data;
    expect(grouped.amount).toBe(15580);
    await deliverCallback(client, (await submitCheckout(grouped.paymentUrl, APPROVE_WALLET)).callbackUrl!);

    const shares = [];
    for (const order of [first, second]) {
      const status = (await paymentStatus(client, agency, order.orderRef)).body.data;
      expect(status).toMatchObject({
        orderStatus: 'PAID',
        paymentStatus: 'SUCCESS',
        groupRef: created.body.data.groupRef,
        groupAmount: 15580,
        amount: order.pricing.totalAmount,
      });
      shares.push(status.amount);
    }
    expect(shares[0] + shares[1]).toBe(15580);
  });
});

describe('amounts at and past their documented maximums', () => {
  it('refuses an added item priced over 1,000,000.00 with a 400 and a field error, never a 500', async () => {
    const touristId = await newTraveller(server, agency.companyId);
    for (const body of [
      lowTrek(touristId, { addedDevices: [{ name: 'Heli', price: 99999999999 }] }),
      [
        lowTrek(touristId, { addedServices: [{ name: 'Heli', price: 6_000_000_000 }] }),
        lowTrek(touristId, { addedServices: [{ name: 'Heli', price: 6_000_000_000 }] }),
      ],
    ]) {
      const response = await client.op('createOrders', 'POST', ORDERS, body, { token: agency.token });
      expectStatus(response, 400);
      expect(Object.keys(response.body.details.fieldErrors).join(' ')).toMatch(/added(Devices|Services).*price/);
    }
  });

  it('creates and pays the largest valid 50-order group, every added amount at its maximum', async () => {
    const touristId = await newTraveller(server, agency.companyId);
    const items = Array.from({ length: 20 }, (_, i) => ({
      name: `Helicopter standby ${i + 1}`,
      price: 1_000_000,
      quantity: 100,
    }));
    const body = Array.from({ length: 50 }, () => lowTrek(touristId, { addedServices: items, addedDevices: items }));
    const created = await client.op('createOrders', 'POST', ORDERS, body, { token: agency.token });
    expectStatus(created, 201);
    expect(created.body.data.orders[0].pricing.totalAmount).toBe(4_000_004_500);

    const grouped = await payGroup(created.body.data.groupRef);
    expectStatus(grouped, 200);
    expect(grouped.body.data.amount).toBe(50 * 4_000_004_500);
    await deliverCallback(client, (await submitCheckout(grouped.body.data.paymentUrl, APPROVE_CARD)).callbackUrl!);
    expect((await paymentStatus(client, agency, created.body.data.orders[49].orderRef)).body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      amount: 4_000_004_500,
      groupAmount: 200_000_225_000,
    });
  });
});
