import { randomUUID } from 'node:crypto';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { everestQuote, ORDERS, QUOTE } from '../support/order-fixtures';
import { newTraveller } from '../support/traveller-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { newCode, newSalesCompany } from '../support/promo-fixtures';
import { expectStatus } from '../support/expect-status';

/**
 * The test clock (decision record 0083): PUT /sandbox/clock
 * makes every business-date rule of that company's requests read the date set, every answer to
 * the company says so in Sandbox-Today, and DELETE goes back to the real date. client.op checks
 * every body against the spec's schema for its status.
 */
const CLOCK = '/api/external/v1/sandbox/clock';
const { server, client } = useTestServer();
let agency: TestPartner;
let other: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Clockwork Treks Pvt. Ltd.' });
  other = await newPartner(server, client, { name: 'Real Time Treks' });
});

afterEach(async () => {
  await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
});

const setClock = (caller: TestPartner, today: string) =>
  client.op('setSandboxClock', 'PUT', CLOCK, { today }, { token: caller.token });
const readClock = (caller: TestPartner) =>
  client.op('getSandboxClock', 'GET', CLOCK, undefined, { token: caller.token });
const preview = (orderRef: string) =>
  client.op('previewOrderCancellation', 'POST', `${ORDERS}/${orderRef}/cancellation/preview`, undefined, {
    token: agency.token,
  });

/** An order paid today through the sandbox helper. */
async function paidOrder() {
  const order = await placeOrder(server, client, agency);
  const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
  const paid = await client.op(
    'setSandboxPaymentOutcome',
    'POST',
    `/api/external/v1/sandbox/payments/${started.body.data.paymentRef}/outcome`,
    { outcome: 'CAPTURED' },
    { token: agency.token },
  );
  expect(paid.body.data.orderStatus).toBe('PAID');
  return order;
}

describe('PUT, GET and DELETE /sandbox/clock', () => {
  it('when the clock is set, then it reads back beside the real date and every answer to the company carries Sandbox-Today', async () => {
    const today = addDays(kathmanduToday(), 20);
    const set = await setClock(agency, today);
    expectStatus(set, 200);
    expect(set.body.data).toEqual({ today, realToday: kathmanduToday() });
    expect(set.headers.get('sandbox-today')).toBe(today);
    const read = await readClock(agency);
    expect(read.body.data).toEqual({ today, realToday: kathmanduToday() });
    expect(read.headers.get('sandbox-today')).toBe(today);
    // Another operation, and an error answer, of the same company carry it too.
    expect(
      (await client.op('listOrders', 'GET', ORDERS, undefined, { token: agency.token })).headers.get('sandbox-today'),
    ).toBe(today);
    const missing = await client.op('getOrder', 'GET', `${ORDERS}/ORD-2030-999999`, undefined, { token: agency.token });
    expectStatus(missing, 404);
    expect(missing.headers.get('sandbox-today')).toBe(today);
  });

  it("when another company sets its clock, then this company's answers carry no Sandbox-Today and read the real date", async () => {
    expectStatus(await setClock(agency, addDays(kathmanduToday(), 20)), 200);
    const read = await readClock(other);
    expect(read.body.data).toEqual({ today: null, realToday: kathmanduToday() });
    expect(read.headers.get('sandbox-today')).toBeNull();
  });

  it('when the clock is deleted, then that answer and the next carry no Sandbox-Today, and deleting again is no error', async () => {
    expectStatus(await setClock(agency, addDays(kathmanduToday(), 20)), 200);
    const removed = await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token });
    expectStatus(removed, 200);
    expect(removed.body.data).toEqual({ today: null, realToday: kathmanduToday() });
    expect(removed.headers.get('sandbox-today')).toBeNull();
    expect((await readClock(agency)).headers.get('sandbox-today')).toBeNull();
    expectStatus(await client.op('deleteSandboxClock', 'DELETE', CLOCK, undefined, { token: agency.token }), 200);
  });

  it('when the date is not a calendar date or outside 2000 to 2099, then 400 naming today', async () => {
    for (const today of ['2030-02-30', 'tomorrow', '2100-01-01']) {
      const response = await setClock(agency, today);
      expectStatus(response, 400);
      expect(Object.keys(response.body.details.fieldErrors)).toEqual(['today']);
    }
  });
});

describe('business-date rules on the test clock', () => {
  it('when the clock is 15 days after the payment, then the cancellation keeps the 10 % fee; back on the real clock it is the free look', async () => {
    const order = await paidOrder();
    expect((await preview(order.orderRef)).body.data).toMatchObject({ rule: 'FREE_LOOK', cancellationFee: 0 });
    await setClock(agency, addDays(kathmanduToday(), 15));
    const late = await preview(order.orderRef);
    expect(late.body.data).toMatchObject({
      rule: 'CANCELLATION_FEE',
      cancellable: true,
      cancellationFee: order.totalAmount / 10,
      refundAmount: order.totalAmount * 0.9,
    });
    const cancelled = await client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${order.orderRef}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expectStatus(cancelled, 200);
    expect(cancelled.body.data).toMatchObject({
      refund: { amount: order.totalAmount * 0.9, cancellationFee: order.totalAmount / 10 },
    });
  });

  it('when the clock is past the first day of cover, then pay and a date change are refused with COVER_STARTED', async () => {
    const order = await placeOrder(server, client, agency);
    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    await setClock(agency, addDays(detail.body.data.coverageStartDate, 1));
    const refused = await pay(client, agency, order.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    expectStatus(refused, 400);
    expect(refused.body.code).toBe('COVER_STARTED');
    const moved = await client.op(
      'updateOrder',
      'PATCH',
      `${ORDERS}/${order.orderRef}`,
      { departureDate: addDays(detail.body.data.coverageStartDate, 10) },
      { token: agency.token },
    );
    expectStatus(moved, 400);
    expect(moved.body.code).toBe('COVER_STARTED');
    // Another company's requests keep the real date: its own order is still payable.
    const theirs = await placeOrder(server, client, other);
    expectStatus(await pay(client, other, theirs.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }), 200);
  });

  it("when the clock is before another company's promo code expired, then the code is still refused: others' codes are judged on the real date", async () => {
    const owner = await newSalesCompany(server);
    const yesterday = addDays(kathmanduToday(), -1);
    const expired = await newCode(server, owner, { validTo: yesterday });
    const order = await placeOrder(server, client, agency);
    expectStatus(await setClock(agency, addDays(kathmanduToday(), -10)), 200);
    const applied = await client.op(
      'applyOrderPromo',
      'POST',
      `${ORDERS}/${order.orderRef}/promo`,
      { promoCode: expired },
      { token: agency.token },
    );
    expectStatus(applied, 400);
    const notYet = await newCode(server, owner, { validFrom: addDays(kathmanduToday(), 5) });
    expectStatus(await setClock(agency, addDays(kathmanduToday(), 6)), 200);
    expectStatus(
      await client.op(
        'applyOrderPromo',
        'POST',
        `${ORDERS}/${order.orderRef}/promo`,
        { promoCode: notYet },
        { token: agency.token },
      ),
      400,
    );
  });

  it("when the clock is past a quote's validity (7 days), then the quote reads EXPIRED; on the real clock ACTIVE", async () => {
    const quote = await everestQuote(client, agency, addDays(kathmanduToday(), 40));
    const read = () => client.op('getQuote', 'GET', `${QUOTE}/${quote.quoteId}`, undefined, { token: agency.token });
    expect((await read()).body.data.quoteStatus).toBe('ACTIVE');
    await setClock(agency, addDays(kathmanduToday(), 8));
    expect((await read()).body.data.quoteStatus).toBe('EXPIRED');
  });

  it("when the clock is ahead, then a quote and an order may not start before the clock's today", async () => {
    const clockToday = addDays(kathmanduToday(), 60);
    await setClock(agency, clockToday);
    const quote = await client.op(
      'createQuote',
      'POST',
      QUOTE,
      {
        nationality: 'Germany',
        ages: [34],
        startDate: addDays(kathmanduToday(), 30),
        duration: 16,
        routeId: ROUTES.everestBaseCamp,
      },
      { token: agency.token },
    );
    expectStatus(quote, 400);
    expect(Object.keys(quote.body.details.fieldErrors)).toContain('startDate');
    // A quote made on the clock is valid for its days counted from the clock's today.
    const later = await everestQuote(client, agency, addDays(clockToday, 5));
    expect(later.validUntil.slice(0, 10) > clockToday).toBe(true);
    const order = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      {
        touristId: await newTraveller(server, agency.companyId),
        ctgId: CTGS.standard3000,
        customRouteName: 'Kathmandu valley rim walk',
        departureDate: addDays(kathmanduToday(), 30),
      },
      { token: agency.token },
    );
    expectStatus(order, 400);
    expect(Object.keys(order.body.details.fieldErrors)).toEqual(['departureDate']);
  });

  it("when the clock is past the end of a paid policy's cover, then its public verify page says EXPIRED; on the real clock VALID or not yet", async () => {
    const order = await paidOrder();
    const detail = await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    const { policyNumber, coverageEndDate } = detail.body.data;
    const verify = () =>
      fetch(`${server.url}/verify/${policyNumber}`).then(async (response) => ({
        html: await response.text(),
        today: response.headers.get('sandbox-today'),
      }));
    expect((await verify()).html).toContain('NOT YET IN FORCE');
    await setClock(agency, addDays(coverageEndDate, 1));
    const expired = await verify();
    expect(expired.html).toContain('EXPIRED');
    expect(expired.today).toBe(addDays(coverageEndDate, 1));
  });
});
