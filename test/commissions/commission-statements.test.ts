import { randomUUID } from 'node:crypto';
import { Company, CompanyType } from '../../src/modules/partners/entities/company';
import { SalesAgent } from '../../src/modules/partners/entities/sales-agent';
import { Order } from '../../src/modules/orders/entities/order';
import { confirmRefund } from '../../src/modules/refunds/refund-operations';
import { refundWrites } from '../../src/modules/payments/refund-writes';
import { periodOf } from '../../src/modules/commissions/rules/commission-period';
import { expectContract } from '../support/contract';
import { readPdf } from '../support/certificate-pdf';
import { csvRecords } from '../support/csv';
import { serverBehind } from '../support/prism';
import { ORDERS } from '../support/order-fixtures';
import { newCode } from '../support/promo-fixtures';
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
        policyNumber: expect.stringMatching(/^SBX-POL-/),
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
      'capPercent',
      'effectivePercent',
      'reversedShare',
      'reversedBase',
      'agentName',
      'agentCode',
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
    // 119 more lines of the same order, so the statement runs to 4 pages (28 on the first, 40 on each other).
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
    expect(read.pages).toHaveLength(4);
    expect(read.text).toContain(issuer.toUpperCase());
    expect(read.text).toContain('Manaslu Printed Statement Co.');
    expect(read.text).toContain(`Period ${thisMonth}`);
    expect(read.text).toContain('NPR 54,000.00');
    read.pages.forEach((page, index) => {
      expect(page.text).toContain(`Page ${index + 1} of 4`);
      expect(page.text).toContain(thisMonth);
    });
    expect(read.text.split(printed.orderRef)).toHaveLength(121);
  });
});

describe('a statement every line of which an accountant can recompute', () => {
  /** base × percent ÷ 100 in paisa, rounded down, from the CSV's two-decimal texts. */
  const recomputed = (base: string, percent: string) =>
    Math.floor((Math.round(Number(base) * 100) * Math.round(Number(percent) * 10_000)) / 1_000_000);
  const paisa = (amount: string) => Math.round(Number(amount) * 100);

  it('shows a capped line with the cap and the percent it was earned at, and a reversal with the share refunded and the base it is taken back on', async () => {
    // 20 % + 20 % of 4,500.00 ask 40 %, over the cap of 35 %: each is earned at 17.5 %.
    const greedy = await newPartner(server, client, { name: 'Greedy Seller Treks', commissionPercent: '20.00' });
    const agency = await newPartner(server, client, { type: CompanyType.TravelAgency, commissionPercent: '20.00' });
    const capped = await placeOrder(server, client, greedy, { travelCompanyIds: [agency.companyId] });
    await paidBy(greedy, capped.orderRef);
    // Cancelled after the free look: 4,050.00 of the 4,500.00 go back, the fee is kept.
    await server.orm.em
      .fork()
      .nativeUpdate(Order, { id: capped.orderId }, { paidAt: new Date(Date.now() - 20 * 86_400_000) });
    await client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${capped.orderRef}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: greedy.token, headers: { 'idempotency-key': randomUUID() } },
    );
    await server.refunds.runOnce();
    await decideSandboxRefundsOf(client, greedy, capped.orderRef);
    const { records } = csvRecords((await download(greedy, thisMonth, 'text/csv')).toString('utf8'));
    expect(
      records.map((r) => [
        r.kind,
        r.role,
        r.base,
        r.percent,
        r.capPercent,
        r.capped,
        r.effectivePercent,
        r.reversedShare,
        r.reversedBase,
        r.amount,
      ]),
    ).toEqual([
      ['EARNED', 'SELLER', '4500.00', '20.00', '35.00', 'true', '17.50', '', '', '787.50'],
      ['REVERSED', 'SELLER', '4500.00', '20.00', '35.00', 'true', '17.50', '4050.00', '4050.00', '-708.75'],
    ]);
    for (const record of records) {
      const base = record.kind === 'EARNED' ? record.base! : record.reversedBase!;
      expect(
        Math.abs(recomputed(base, record.effectivePercent!) - Math.abs(paisa(record.amount!))),
      ).toBeLessThanOrEqual(1);
    }
    // The JSON lines carry the same fields.
    const lines = (await statement(greedy, thisMonth)).body.data.lines.content;
    expect(
      lines.map((line: Record<string, unknown>) => [
        line.capPercent,
        line.effectivePercent,
        line.reversedShare,
        line.reversedBase,
      ]),
    ).toEqual([
      [35, 17.5, null, null],
      [35, 17.5, 4050, 4050],
    ]);
    const read = await readPdf(await download(greedy, thisMonth, 'application/pdf'));
    const items = read.pages[0]!.items;
    // The table's rows: the pieces on the baseline of a Nepal date and time.
    const rows = items
      .filter((item) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(item.text))
      .map((date) =>
        items
          .filter((item) => Math.abs(item.y - date.y) < 1)
          .sort((a, b) => a.x - b.x)
          .map((item) => item.text)
          .join(' '),
      );
    const row = (kind: string) => rows.find((text) => text.includes(` ${kind} `)) ?? rows.join(' | ');
    expect(row('Earned')).toMatch(/Seller .*4,500\.00 20\.00 35\.00 17\.50 787\.50$/);
    expect(row('Reversed')).toMatch(/Seller .*RFD-\S+ 4,050\.00 20\.00 35\.00 17\.50 -708\.75$/);
  });

  it("names an agent's line with the agent's name and code, on the agent's sales company's statement", async () => {
    const sales = await newPartner(server, client, {
      name: 'Summit Statement Sales',
      type: CompanyType.SalesCompany,
      commissionPercent: '12.00',
    });
    const em = server.orm.em.fork();
    const agent = em.create(SalesAgent, { company: sales.companyId, name: 'Sita Rai', commissionPercent: '2.00' });
    await em.flush();
    const code = await newCode(server, { kind: 'AGENT', id: agent.id, name: agent.name }, { percent: 10 });
    const sold = await placeOrder(server, client, seller, { promoCode: code });
    await paidBy(seller, sold.orderRef);
    const { records } = csvRecords((await download(sales, thisMonth, 'text/csv')).toString('utf8'));
    expect(records.map((r) => [r.role, r.agentId, r.agentName, r.agentCode, r.base, r.amount])).toEqual([
      ['AGENT', agent.id, 'Sita Rai', code, '4050.00', '81.00'],
    ]);
    expect((await statement(sales, thisMonth)).body.data.lines.content[0]).toMatchObject({
      agentName: 'Sita Rai',
      agentCode: code,
    });
    const read = await readPdf(await download(sales, thisMonth, 'application/pdf'));
    expect(read.text).toContain(`Agent: Sita Rai ${code}`);
  });

  it("prints both parties' PAN/VAT numbers: the company's as recorded, the insurer's from the settings", async () => {
    const partner = await newPartner(server, client, { name: 'Taxed Treks' });
    await server.orm.em.fork().nativeUpdate(Company, { id: partner.companyId }, { panNumber: '601234567' });
    const json = (await statement(partner, thisMonth)).body.data;
    const issuer = json.issuer;
    const number = `CST-${thisMonth}-${partner.companyId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
    expect(json).toMatchObject({
      companyPan: '601234567',
      issuerPan: 'no PAN (sandbox placeholder)',
      statementNumber: number,
    });
    const read = await readPdf(await download(partner, thisMonth, 'application/pdf'));
    expect(read.text).toContain(`No. ${number}`);
    expect(read.text).toContain('Taxed Treks: PAN/VAT 601234567');
    expect(read.text).toContain(`${issuer}: PAN/VAT no PAN (sandbox placeholder)`);
    expect(read.text).toContain('No tax (TDS) is deducted by this service');
    expect(read.text).toMatch(new RegExp(`No\\. CST-${thisMonth}-[0-9A-F]{8}`));
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
      { refundWrites },
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
