import { randomUUID } from 'node:crypto';
import type { TestPartner } from '../support/partners';
import { newPartner } from '../support/partners';
import { ORDERS } from '../support/order-fixtures';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  decideSandboxRefund,
  deliverCallback,
  pay,
  placeOrder,
  submitCheckout,
} from '../support/payment-fixtures';
import { csvRecords } from '../support/csv';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * GET /refunds and GET /refunds/{refundRef} (decision record 0075): a company reads the
 * refunds of the orders it placed, newest first, filtered, as JSON pages or CSV. client.op checks
 * every body against the spec's schema for its status.
 */
const REFUNDS = '/api/external/v1/refunds';
const { server, client } = useTestServer();
let agency: TestPartner;
let stranger: TestPartner;
let card: { refundRef: string; orderRef: string };
let wallet: { refundRef: string; orderRef: string };

async function cancelledAfterPaying(gateway: 'card_gateway' | 'wallet_gateway') {
  const order = await placeOrder(server, client, agency);
  const started = (await pay(client, agency, order.orderRef, { gateway })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, gateway === 'card_gateway' ? APPROVE_CARD : APPROVE_WALLET);
  expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
  const cancelled = await client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${order.orderRef}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: agency.token, headers: { 'idempotency-key': randomUUID() } },
  );
  expectStatus(cancelled, 200);
  return { refundRef: cancelled.body.data.refund.refundRef as string, orderRef: order.orderRef };
}

const list = (caller: TestPartner, search = '', headers: Record<string, string> = {}) =>
  client.op('listRefunds', 'GET', `${REFUNDS}${search ? `?${search}` : ''}`, undefined, {
    token: caller.token,
    headers,
  });

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Refund Reading Treks Pvt. Ltd.' });
  stranger = await newPartner(server, client, { name: 'Stranger Refund Treks' });
  card = await cancelledAfterPaying('card_gateway');
  wallet = await cancelledAfterPaying('wallet_gateway');
  // The executor tries the card refund; the sandbox card gateway waits for the sandbox helper to decide it.
  await server.refunds.runOnce();
  await decideSandboxRefund(client, agency, card.refundRef);
});

describe('GET /refunds', () => {
  it("lists the company's refunds newest first in the list envelope, and no other company's", async () => {
    const response = await list(agency);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({ page: 0, size: 20, totalElements: 2, first: true, last: true });
    expect(response.body.data.content.map((refund: { refundRef: string }) => refund.refundRef)).toEqual([
      wallet.refundRef,
      card.refundRef,
    ]);
    expect(response.body.data.content[0]).toMatchObject({
      orderRef: wallet.orderRef,
      cause: 'CANCELLATION',
      status: 'MANUAL',
      gateway: 'WALLET_GATEWAY',
      currency: 'NPR',
      completedAt: null,
    });
    expect((await list(stranger)).body.data).toMatchObject({ totalElements: 0, content: [] });
  });

  it('filters by status, cause, orderRef and creation time', async () => {
    expect(
      (await list(agency, 'status=MANUAL')).body.data.content.map((refund: { refundRef: string }) => refund.refundRef),
    ).toEqual([wallet.refundRef]);
    expect(
      (await list(agency, `orderRef=${card.orderRef}`)).body.data.content.map(
        (refund: { refundRef: string }) => refund.refundRef,
      ),
    ).toEqual([card.refundRef]);
    expect((await list(agency, 'cause=LATE_CAPTURE')).body.data.totalElements).toBe(0);
    expect(
      (await list(agency, `createdFrom=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.data
        .totalElements,
    ).toBe(0);
  });

  it('sorts by createdAt, amount or status either way (the reference breaks ties), the export too; any other sortBy is a 400', async () => {
    const refs = async (search: string) =>
      (await list(agency, search)).body.data.content.map((refund: { refundRef: string }) => refund.refundRef);
    expect(await refs('sortBy=createdAt&sortDir=asc')).toEqual([card.refundRef, wallet.refundRef]);
    // The card refund SUCCEEDED, the wallet one is MANUAL.
    expect(await refs('sortBy=status&sortDir=asc')).toEqual([wallet.refundRef, card.refundRef]);
    expect(await refs('sortBy=status&sortDir=desc')).toEqual([card.refundRef, wallet.refundRef]);
    expect(await refs('sortBy=amount&sortDir=asc')).toEqual([...(await refs('sortBy=amount&sortDir=desc'))].reverse());
    const csv = (await list(agency, 'sortBy=createdAt&sortDir=asc', { accept: 'text/csv' })).body as string;
    expect(csv.indexOf(card.refundRef)).toBeLessThan(csv.indexOf(wallet.refundRef));
    const unknown = await list(agency, 'sortBy=orderRef');
    expectStatus(unknown, 400);
    expect(unknown.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fieldErrors: { sortBy: expect.any(String) } },
    });
  });

  it('answers a filter outside its bounds with a 400 naming it', async () => {
    const reversed = await list(
      agency,
      `createdFrom=${encodeURIComponent('2030-10-01T00:00:00+05:45')}&createdTo=${encodeURIComponent('2030-09-01T00:00:00+05:45')}`,
    );
    expectStatus(reversed, 400);
    expect(reversed.body.details.fieldErrors).toEqual({ createdFrom: 'must be before createdTo' });
    expectStatus(await list(agency, 'cause=GIFT'), 400);
  });

  it('exports every match as CSV with Accept: text/csv', async () => {
    const response = await list(agency, '', { accept: 'text/csv' });
    expectStatus(response, 200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="refunds-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const { header, records } = csvRecords(response.body);
    expect(header).toEqual([
      'refundRef',
      'orderRef',
      'paymentRef',
      'cause',
      'status',
      'amount',
      'cancellationFee',
      'currency',
      'gateway',
      'createdAt',
      'completedAt',
    ]);
    expect(records.map((record) => [record.refundRef, record.status, record.cancellationFee])).toEqual([
      [wallet.refundRef, 'MANUAL', '0.00'],
      [card.refundRef, 'SUCCEEDED', '0.00'],
    ]);
  });
});

describe('GET /refunds/{refundRef}', () => {
  it("reads one refund of the company's, and answers 404 to another company as to an unknown one", async () => {
    await server.refunds.runOnce();
    const response = await client.op('getRefund', 'GET', `${REFUNDS}/${card.refundRef}`, undefined, {
      token: agency.token,
    });
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      refundRef: card.refundRef,
      orderRef: card.orderRef,
      status: 'SUCCEEDED',
      gateway: 'CARD_GATEWAY',
      cause: 'CANCELLATION',
      completedAt: expect.any(String),
    });
    expectStatus(
      await client.op('getRefund', 'GET', `${REFUNDS}/${card.refundRef}`, undefined, { token: stranger.token }),
      404,
    );
    expectStatus(
      await client.op('getRefund', 'GET', `${REFUNDS}/RFD-2030-999999`, undefined, { token: agency.token }),
      404,
    );
  });
});

describe('the order book with the refunds (GET /orders)', () => {
  it("shows a cancelled paid order's refund and cancellation time, in JSON and in the CSV export", async () => {
    const json = await client.op('listOrders', 'GET', `${ORDERS}?search=${card.orderRef}`, undefined, {
      token: agency.token,
    });
    expectStatus(json, 200);
    const [row] = json.body.data.content;
    expect(row).toMatchObject({
      orderRef: card.orderRef,
      status: 'CANCELLED',
      refundRef: card.refundRef,
      refundFee: 0,
      refundStatus: 'SUCCEEDED',
      cancelledAt: expect.any(String),
    });
    expect(row.refundAmount).toBeGreaterThan(0);
    const csv = await client.op('listOrders', 'GET', `${ORDERS}?search=${card.orderRef}`, undefined, {
      token: agency.token,
      headers: { accept: 'text/csv' },
    });
    const [record] = csvRecords(csv.body).records;
    expect(record).toMatchObject({
      refundRef: card.refundRef,
      refundAmount: row.refundAmount.toFixed(2),
      refundFee: '0.00',
      refundStatus: 'SUCCEEDED',
      cancelledAt: row.cancelledAt,
    });
  });
});
