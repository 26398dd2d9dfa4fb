import { announceClosedPeriods } from '../../src/modules/commissions/period-closing';
import { periodOf } from '../../src/modules/commissions/rules/commission-period';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { expectSchema } from '../support/contract';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';

const { server, client } = useTestServer();
let seller: TestPartner;
let idle: TestPartner;

async function paidOrderOf(partner: TestPartner) {
  const order = await placeOrder(server, client, partner);
  const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
  const callback = await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_CARD)).callbackUrl!);
  if (callback.status !== 200) throw new Error(`payment failed: ${JSON.stringify(callback.body)}`);
}

beforeAll(async () => {
  seller = await newPartner(server, client, { name: 'Dolpo Close Treks', commissionPercent: '10.00' });
  idle = await newPartner(server, client, { name: 'Idle Close Treks', commissionPercent: '10.00' });
  await paidOrderOf(seller);
});

const closedEvents = (companyId: string) =>
  server.orm.em.fork().find(WebhookEvent, { companyId, type: 'commission.period_closed' });

describe('commission.period_closed', () => {
  it('is not sent while the month runs', async () => {
    await announceClosedPeriods(server.orm.em.fork(), 'NPR', new Date());
    expect(await closedEvents(seller.companyId)).toEqual([]);
  });

  it('is sent once to each company with a non-empty statement once the Nepal month has ended, with the totals it keeps', async () => {
    const period = periodOf(new Date());
    const afterMonthEnd = new Date(Date.now() + 35 * 86_400_000);
    const first = await announceClosedPeriods(server.orm.em.fork(), 'NPR', afterMonthEnd);
    expect(first.announced).toContain(`${seller.companyId} ${period}`);
    const [event] = await closedEvents(seller.companyId);
    expect(event!.payload).toMatchObject({
      type: 'commission.period_closed',
      data: { period, status: 'CLOSED', currency: 'NPR', earned: 450, reversed: 0, net: 450, lineCount: 1 },
    });
    expectSchema('CommissionPeriodClosedEvent', event!.payload);
    // A company without lines in the month hears nothing; a second run (another process) sends nothing again.
    expect(await closedEvents(idle.companyId)).toEqual([]);
    const again = await announceClosedPeriods(server.orm.em.fork(), 'NPR', afterMonthEnd);
    expect(again.announced).not.toContain(`${seller.companyId} ${period}`);
    expect(await closedEvents(seller.companyId)).toHaveLength(1);
  });

  it('is announced once when two runs race', async () => {
    const partner = await newPartner(server, client, { commissionPercent: '10.00' });
    await paidOrderOf(partner);
    const afterMonthEnd = new Date(Date.now() + 35 * 86_400_000);
    await Promise.allSettled([
      announceClosedPeriods(server.orm.em.fork(), 'NPR', afterMonthEnd),
      announceClosedPeriods(server.orm.em.fork(), 'NPR', afterMonthEnd),
    ]);
    expect(await closedEvents(partner.companyId)).toHaveLength(1);
  });
});
