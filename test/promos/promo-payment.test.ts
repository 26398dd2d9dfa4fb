import { randomUUID } from 'node:crypto';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, paymentStatus, placeOrder, RETURN_URL, submitCheckout } from '../support/payment-fixtures';
import { newCode, newSalesCompany, orderPromoPath } from '../support/promo-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Langtang Treks Pvt. Ltd.' });
});

const APPROVING_CARD = {
  cardNumber: '4242424242424242',
  expiry: '12/30',
  cvc: '123',
  holder: 'Chloe Martin',
  action: 'pay',
};

async function attemptOf(paymentUrl: string): Promise<PaymentAttempt> {
  const paymentRef = decodeURIComponent(new URL(paymentUrl).pathname.split('/').pop()!);
  return server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef });
}

describe('a promo change while a payment attempt is open', () => {
  it('closes the checkout opened at the old total, so the customer can only pay the new total through a new attempt', async () => {
    const order = await placeOrder(server, client, agency);
    const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(started, 200);
    const code = await newCode(server, await newSalesCompany(server), { percent: 10 });

    const applied = await client.op(
      'applyOrderPromo',
      'POST',
      orderPromoPath(order.orderRef),
      { promoCode: code },
      { token: agency.token },
    );
    expectStatus(applied, 200);
    expect(applied.body.data.totalAfter).toBeLessThan(order.totalAmount);

    const old = await attemptOf(started.body.data.paymentUrl);
    expect(old.status).toBe('CANCELLED');
    expect(old.closedReason).toBe('ORDER_REPRICED');
    const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVING_CARD);
    expect(checkout.callbackUrl).toBeUndefined();

    const fresh = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' }, randomUUID());
    expectStatus(fresh, 200);
    expect(Number((await attemptOf(fresh.body.data.paymentUrl)).amount)).toBe(
      Math.round(applied.body.data.totalAfter * 100),
    );
    const status = await paymentStatus(client, agency, order.orderRef);
    expect(status.body.data).toMatchObject({ paymentStatus: 'INITIATED', amount: applied.body.data.totalAfter });
  });
});
