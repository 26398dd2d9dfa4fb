import { randomUUID } from 'node:crypto';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { confirmRefund } from '../../src/modules/refunds/refund-operations';
import { periodOf } from '../../src/modules/commissions/rules/commission-period';
import { expectContract } from '../support/contract';
import { readPdf } from '../support/certificate-pdf';
import { csvRecords } from '../support/csv';
import { serverBehind } from '../support/prism';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_CARD,
  APPROVE_WALLET,
  decideSandboxRefundsOf,
  deliverCallback,
  pay,
  placeOrder,
  submitCheckout,
} from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();
const STATEMENTS = '/api/external/v1/commission-statements';
const thisMonth = periodOf(new Date());

async function paidBy(
  partner: TestPartner,
  orderRef: string,
  gateway: 'card_gateway' | 'wallet_gateway' = 'card_gateway',
) {
  const started = (await pay(client, partner, orderRef, { gateway })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, gateway === 'card_gateway' ? APPROVE_CARD : APPROVE_WALLET);
  expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
}

const statement = (partner: TestPartner, period: string, query = '') =>
  client.op('getCommissionStatement', 'GET', `${STATEMENTS}/${period}${query}`, undefined, { token: partner.token });

/** The statement as CSV or PDF, fetched raw: the body is checked as the media type the spec documents. */
async function download(partner: TestPartner, period: string, accept: 'text/csv' | 'application/pdf') {
  const response = await fetch(new URL(`${STATEMENTS}/${period}`, serverBehind(server.url)), {
    headers: { authorization: `Bearer ${partner.token}`, accept },
  });
  const body = Buffer.from(await response.arrayBuffer());
  expectStatus(response, 200);
  expect(response.headers.get('content-type')).toContain(accept);
  expect(response.headers.get('content-disposition')).toBe(
    `attachment; filename="commission-${period}.${accept === 'text/csv' ? 'csv' : 'pdf'}"`,
  );
  await expectContract(
    'getCommissionStatement',
    200,
    body.toString('latin1'),
    response.headers.get('content-type') ?? undefined,
  );
  return body;
}

let seller: TestPartner;
let listed: TestPartner;
let order: { orderId: string; orderRef: string };

beforeAll(async () => {
  seller = await newPartner(server, client, { name: 'Gokyo Statement Treks', commissionPercent: '10.00' });
  listed = await newPartner(server, client, {
    name: 'Listed Statement Agency',
    type: CompanyType.TravelAgency,
    commissionPercent: '5.00',
  });
  order = await placeOrder(server, client, seller, { travelCompanyIds: [listed.companyId] });
  await paidBy(seller, order.orderRef);
});

describe('GET /commission-statements/{period}', () => {
  it('shows the seller its own line of the month with the totals earned, reversed and net, OPEN while the Nepal month runs', async () => {
    const response = await statement(seller, thisMonth);
    expectStatus(response, 200);
    expect(response.body.data).toMatchObject({
      period: thisMonth,
      status: 'OPEN',
      companyId: seller.companyId,
      companyName: 'Gokyo Statement Treks',
      currency: 'NPR',
      earned: 450,
      reversed: 0,
      net: 450,
      lineCount: 1,
    });
    expect(response.body.data.lines).toMatchObject({
      page: 0,
      size: 20,
      totalElements: 1,
      totalPages: 1,
      first: true,
      last: true,
    });
    expect(response.body.data.lines.content).toEqual([
      expect.objectContaining({
        kind: 'EARNED',
        role: 'SELLER',
        orderRef: order.orderRef,
        policyNumber: expect.stringMatching(/^POL-/),
        refundRef: null,
        agentId: null,
        base: 4500,
        percent: 10,
        capped: false,
        amount: 450,
        currency: 'NPR',
        period: thisMonth,
      }),
    ]);
  });

  it("shows a listed agency only its own line of the same order, never the seller's", async () => {
    const lines = (await statement(listed, thisMonth)).body.data.lines.content;
    expect(lines.map((line: { role: string; amount: number }) => [line.role, line.amount])).toEqual([
      ['LISTED_AGENCY', 225],
    ]);
  });

  it('answers a month without lines with zeros, and a month that is over in Nepal as CLOSED', async () => {
    expect((await statement(seller, '2020-01')).body.data).toMatchObject({
      period: '2020-01',
      status: 'CLOSED',
      earned: 0,
      reversed: 0,
      net: 0,
      lineCount: 0,
      lines: { content: [], totalElements: 0 },
    });
  });

  it('refuses a period that is not a month (400 with a field error), and a caller without a token (401)', async () => {
    for (const period of ['2030-13', '2030-1', 'last-month']) {
      const response = await statement(seller, period);
      expectStatus(response, 400);
      expect(response.body.details.fieldErrors).toHaveProperty('period');
    }
    expectStatus(await client.op('getCommissionStatement', 'GET', `${STATEMENTS}/${thisMonth}`), 401);
  });

  it('streams every line as CSV with its negative REVERSED amounts as numbers', async () => {
    const partner = await newPartner(server, client, { commissionPercent: '10.00' });
    const refunded = await placeOrder(server, client, partner);
    await paidBy(partner, refunded.orderRef);
    await client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${refunded.orderRef}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );
    await server.refunds.runOnce();
    await decideSandboxRefundsOf(client, partner, refunded.orderRef);
    const { header, records } = csvRecords((await download(partner, thisMonth, 'text/csv')).toString('utf8'));
    expect(header).toEqual([
      'lineId',
      'occurredAt',
      'kind',
      'role',
      'orderRef',
      'policyNumber',
      'paymentRef',
      'refundRef',
      'agentId',
      'base',
      'percent',
      'capped',
      'amount',
      'currency',
    ]);
    expect(
      records.map((record) => [record.kind, record.role, record.orderRef, record.base, record.percent, record.amount]),
    ).toEqual([
      ['EARNED', 'SELLER', refunded.orderRef, '4500.00', '10.00', '450.00'],
      ['REVERSED', 'SELLER', refunded.orderRef, '4500.00', '10.00', '-450.00'],
    ]);
    expect(records[1]!.refundRef).toMatch(/^RFD-/);
    expect((await statement(partner, thisMonth)).body.data).toMatchObject({
      earned: 450,
      reversed: -450,
      net: 0,
      lineCount: 2,
    });
  });

  it("prints the statement: the insurer's and the partner's names, the period, the totals and every line, each page headed and numbered", async () => {
    const partner = await newPartner(server, client, {
      name: 'Manaslu Printed Statement Co.',
      commissionPercent: '10.00',
    });
    const printed = await placeOrder(server, client, partner);
    await paidBy(partner, printed.orderRef);
    // 119 more lines of the same order, so the statement runs to 3 pages (44 on the first, 58 on each other).
    await server.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into commission_entry (id, kind, company_id, role, order_id, policy_number, payment_ref, currency, share, base, percent, cap_percent, capped, amount, occurred_at, period, created_at)
      select gen_random_uuid(), 'EARNED', company_id, role, order_id, policy_number, payment_ref || '-' || n, currency, share, base, percent, cap_percent, capped, amount, occurred_at + n * interval '1 second', period, created_at
      from commission_entry, generate_series(1, 119) n where company_id = ?`,
        [partner.companyId],
      );
    const issuer = (await statement(partner, thisMonth)).body.data.issuer;
    const read = await readPdf(await download(partner, thisMonth, 'application/pdf'));
    expect(read.pages).toHaveLength(3);
    expect(read.text).toContain(issuer.toUpperCase());
    expect(read.text).toContain('Manaslu Printed Statement Co.');
    expect(read.text).toContain(`Period ${thisMonth}`);
    expect(read.text).toContain('NPR 54,000.00');
    read.pages.forEach((page, index) => {
      expect(page.text).toContain(`Page ${index + 1} of 3`);
      expect(page.text).toContain(thisMonth);
    });
    expect(read.text.split(printed.orderRef)).toHaveLength(121);
  });
});

describe('GET /commission-statements', () => {
  it("lists the caller's months with their totals, newest first, a refund in a later month in that month", async () => {
    const partner = await newPartner(server, client, { commissionPercent: '10.00' });
    const late = await placeOrder(server, client, partner);
    await paidBy(partner, late.orderRef, 'wallet_gateway');
    const answer = await client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${late.orderRef}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );
    const nextMonth = new Date(Date.now() + 35 * 86_400_000);
    await confirmRefund(
      server.orm.em.fork(),
      answer.body.data.refund.refundRef,
      'WALLET-RFD-2',
      'operator-cli:test',
      nextMonth,
    );
    const response = await client.op('listCommissionStatements', 'GET', STATEMENTS, undefined, {
      token: partner.token,
    });
    expectStatus(response, 200);
    expect(response.body.data).toEqual([
      {
        period: periodOf(nextMonth),
        status: 'OPEN',
        currency: 'NPR',
        earned: 0,
        reversed: -450,
        net: -450,
        lineCount: 1,
      },
      { period: thisMonth, status: 'OPEN', currency: 'NPR', earned: 450, reversed: 0, net: 450, lineCount: 1 },
    ]);
  });
});

describe('the order detail', () => {
  it('shows the caller its own commission lines of the order, and only them', async () => {
    const detail = async (partner: TestPartner) =>
      (await client.op('getOrder', 'GET', `${ORDERS}/${order.orderRef}`, undefined, { token: partner.token })).body
        .data;
    expect(
      (await detail(seller)).commissionLines.map((line: { role: string; amount: number }) => [line.role, line.amount]),
    ).toEqual([['SELLER', 450]]);
    expect(
      (await detail(listed)).commissionLines.map((line: { role: string; amount: number }) => [line.role, line.amount]),
    ).toEqual([['LISTED_AGENCY', 225]]);
  });
});
