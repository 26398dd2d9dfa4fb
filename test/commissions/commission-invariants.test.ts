import { randomUUID } from 'node:crypto';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { Order } from '../../src/modules/orders/entities/order';
import { checkInvariants } from '../fault/support/database-checks';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { newCode, newSalesCompany } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client, databaseUrl } = useTestServer({ ownDatabase: 'commission_invariants' });
let seller: TestPartner;
let listed: TestPartner;

async function paid(partner: TestPartner, extra: Record<string, unknown> = {}) {
  const order = await placeOrder(server, client, partner, extra);
  const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
  expectStatus(
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!),
    200,
  );
  return order;
}

const cancel = (partner: TestPartner, orderRef: string) =>
  client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${orderRef}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
  );

const commissionViolations = (output: string) =>
  output.split('\n').filter((line) => line.startsWith('VIOLATION') && /commission/i.test(line));

beforeAll(async () => {
  seller = await newPartner(server, client, { commissionPercent: '20.00' });
  listed = await newPartner(server, client, { type: CompanyType.TravelAgency, commissionPercent: '20.00' });
});

describe('the invariant checker on commission', () => {
  it('finds nothing wrong after sales, a capped order, a promo code, full and partial refunds', async () => {
    await paid(seller);
    await paid(seller, { travelCompanyIds: [listed.companyId] });
    const owner = await newSalesCompany(server);
    await paid(seller, { promoCode: await newCode(server, owner, { percent: 15 }) });
    const full = await paid(seller, { travelCompanyIds: [listed.companyId] });
    expectStatus(await cancel(seller, full.orderRef), 200);
    const partial = await paid(seller, { travelCompanyIds: [listed.companyId] });
    await server.orm.em
      .fork()
      .nativeUpdate(Order, { id: partial.orderId }, { paidAt: new Date(Date.now() - 20 * 86_400_000) });
    expectStatus(await cancel(seller, partial.orderRef), 200);
    await server.refunds.runOnce();
    const report = await checkInvariants(databaseUrl());
    expect(report.output).toContain('"commissionLines":');
    expect(commissionViolations(report.output)).toEqual([]);
  });

  it('reports a line that is not what the rules give, and earners above the cap', async () => {
    const order = await paid(seller);
    await server.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into commission_entry (id, kind, company_id, role, order_id, policy_number, payment_ref, currency, share, base, percent, cap_percent, capped, amount, occurred_at, period, created_at)
      select gen_random_uuid(), 'EARNED', ?, 'LISTED_AGENCY', order_id, policy_number, payment_ref, currency, share, base, '30.00', cap_percent, false, base * 0.30, occurred_at, period, created_at
      from commission_entry where order_id = ?`,
        [listed.companyId, order.orderId],
      );
    const violations = commissionViolations((await checkInvariants(databaseUrl())).output);
    expect(violations.some((line) => line.includes('not its percent of its base'))).toBe(true);
    expect(violations.some((line) => line.includes('more than the cap'))).toBe(true);
    expect(violations.every((line) => line.includes(order.orderRef))).toBe(true);
  });
});
