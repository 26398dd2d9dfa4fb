import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { retiredTsumCatalogue } from '../support/catalogue-fixtures';
import { stringify } from 'yaml';
import { AuditEntry } from '../../src/modules/orders/entities/audit-entry';
import { Ctg } from '../../src/modules/catalogue/entities/ctg';
import { Order } from '../../src/modules/orders/entities/order';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import { Route } from '../../src/modules/catalogue/entities/route';
import type { RunningServer } from '../../src/server';
import { buildServer } from '../support/built-server';
import { captured, first } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import {
  APPROVE_WALLET,
  deliverCallback,
  pay,
  paymentStatus,
  placeGroup,
  placeOrder,
  submitCheckout,
} from '../support/payment-fixtures';
import { newCode, newSalesCompany, usedCount } from '../support/promo-fixtures';
import { SANDBOX_ENV, startTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { eventually } from '../support/eventually';
import { expectStatus } from '../support/expect-status';

const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');

// Every command is a process start (about a second on a loaded CI machine), and a test runs many.
jest.setTimeout(240_000);

/**
 * One `ops` command in its own process, as an operator runs it beside the server. Asynchronous on
 * purpose: the server under test runs in this process, and a synchronous spawn would freeze it, so
 * a command waiting on a row the server's worker had locked would wait for ever.
 */
function ops(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: process.env.TEST_DATABASE_URL, ...SANDBOX_ENV },
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) =>
      resolve({ code, stdout, stderr: signal ? `${stderr}(killed by ${signal})` : stderr }),
    );
  });
}

const json = async (...args: string[]) => {
  const result = await ops(...args, '--json');
  if (result.code !== 0) throw new Error(`ops ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
};

/**
 * Every command path with its `--help` answer, found by walking the "Commands:" sections of the
 * help pages themselves (each page is asked for once: a CLI start costs half a second).
 */
async function helpPages(
  parent: string[] = [],
): Promise<Array<{ path: string[]; help: Awaited<ReturnType<typeof ops>> }>> {
  const help = await ops(...parent, '--help');
  const section = help.stdout.split('Commands:')[1];
  if (!section) return [{ path: parent, help }];
  const names = [...section.matchAll(/^ {2}([a-z-]+)/gm)]
    .map((match) => captured(match, 1))
    .filter((name) => name !== 'help');
  const pages = [{ path: parent, help }];
  for (const name of names) pages.push(...(await helpPages([...parent, name])));
  return pages;
}

/** A catalogue file of one retired route and one retired package for it: nothing partners would see. */
function catalogueFile(overrides: { ctgName?: string } = {}) {
  const { ids, ...content } = retiredTsumCatalogue(overrides.ctgName);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-')), 'catalogue.yaml');
  fs.writeFileSync(file, stringify(content));
  return { file, ...ids };
}

let server: RunningServer;
let client: ApiClient;
let partner: TestPartner;

beforeAll(async () => {
  buildServer();
  // Background jobs on: the events `ops webhook test` and `replay` queue are sent by this server's delivery workers.
  server = await startTestServer({}, undefined, { backgroundJobs: true });
  client = new ApiClient(server.url);
  partner = await newPartner(server, client, { name: 'Annapurna Ascents' });
}, 120_000);
afterAll(() => server.stop());

describe('operator command line', () => {
  it('has --help on every command, and --json on every command that does something', async () => {
    const pages = await helpPages();
    expect(pages.map((page) => page.path.join(' '))).toEqual(
      expect.arrayContaining([
        'company create',
        'company deactivate',
        'company list',
        'credential issue',
        'credential revoke',
        'catalogue import',
        'demo',
        'demo deactivate',
        'agent create',
        'agent deactivate',
        'order show',
        'order cancel',
        'order record-cash',
        'webhook list',
        'webhook set',
        'webhook remove',
        'webhook rotate-secret',
        'webhook deliveries',
        'webhook replay',
        'webhook test',
      ]),
    );
    for (const { help } of pages) {
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: ops/);
      const isLeaf = !help.stdout.includes('Commands:');
      if (isLeaf) expect(help.stdout).toContain('--json');
    }
  });

  it('prints JSON for every command with --json', async () => {
    const company = await json(
      'company',
      'create',
      '--name',
      'Khumbu Treks',
      '--type',
      'TRAVEL_AGENCY',
      '--commission',
      '8',
    );
    expect(company).toMatchObject({ id: expect.any(String), name: 'Khumbu Treks', type: 'TRAVEL_AGENCY' });
    const credential = await json('credential', 'issue', '--company', company.id);
    expect(credential).toEqual({
      clientId: expect.stringMatching(/^pk_/),
      clientSecret: expect.any(String),
      companyId: company.id,
    });
    expect((await json('company', 'list')).map((c: { id: string }) => c.id)).toContain(company.id);
    expect(await json('credential', 'revoke', credential.clientId)).toMatchObject({
      clientId: credential.clientId,
      revokedAt: expect.any(String),
    });
    expect(await json('company', 'deactivate', company.id)).toEqual({ id: company.id, active: false });
    expect((await json('demo')).map((p: { clientId: string }) => p.clientId)).toContain('demo-everest-trails');
    const sales = await json('company', 'create', '--name', 'Dhaulagiri Cover Sales', '--type', 'SALES_COMPANY');
    const agent = await json('agent', 'create', '--company', sales.id, '--name', 'Dawa Lama');
    expect(await json('agent', 'deactivate', agent.id)).toEqual({ id: agent.id, name: 'Dawa Lama', active: false });
  });

  it('reports a failure as JSON on stderr with --json, and exits 1', async () => {
    const result = await ops('company', 'deactivate', randomUUID(), '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({ error: expect.stringMatching(/^no company /) });
  });
});

describe('ops catalogue import FILE.yaml', () => {
  it('inserts the routes, packages, coverage and devices of the file', async () => {
    const { file, routeId, ctgId } = catalogueFile();
    expect(await json('catalogue', 'import', file)).toEqual({ file, dryRun: false, routes: 1, ctgs: 1 });
    const em = server.orm.em.fork();
    expect(await em.findOneOrFail(Route, routeId)).toMatchObject({
      name: 'Tsum Valley Trek',
      active: false,
      maxAltitude: 3700,
    });
    const ctg = await em.findOneOrFail(Ctg, ctgId);
    expect(ctg).toMatchObject({ baseCtgPrice: 910_050, extraDayPrice: 60_000, active: false });
    expect(ctg.coverage).toEqual([
      { code: 'EMERGENCY_EVACUATION', name: 'Helicopter emergency evacuation', coverageAmount: 150_000_000 },
    ]);
    expect(ctg.includedDevices).toEqual([
      expect.objectContaining({ name: 'Satellite messenger', quantity: 1, dailyPrice: 15_000 }),
    ]);
  });

  it('updates entries by id on a second import, and running servers reload at once', async () => {
    const { file, ctgId } = catalogueFile();
    await json('catalogue', 'import', file);
    await server.catalogue.reload();
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Tsum Valley Special', 'Tsum Valley Special (2027)'));
    expect(await json('catalogue', 'import', file)).toMatchObject({ routes: 1, ctgs: 1 });
    expect((await server.orm.em.fork().findOneOrFail(Ctg, ctgId)).name).toBe('Tsum Valley Special (2027)');
    // The server's snapshot is fresh (well inside its 30 s age), so only the NOTIFY can have changed it.
    const nameNow = async () => (await server.catalogue.current()).ctgById.get(ctgId)?.name;
    expect(
      await eventually(nameNow, (name) => name === 'Tsum Valley Special (2027)', { timeoutMs: 5_000, intervalMs: 50 }),
    ).toBe('Tsum Valley Special (2027)');
  });

  it('checks a file without writing on --dry-run', async () => {
    const { file, ctgId } = catalogueFile();
    expect(await json('catalogue', 'import', file, '--dry-run')).toEqual({ file, dryRun: true, routes: 1, ctgs: 1 });
    expect(await server.orm.em.fork().findOne(Ctg, ctgId)).toBeNull();
  });

  it('refuses a bad file with the place of every problem and imports nothing', async () => {
    const { file, routeId } = catalogueFile();
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace('routeType: TEAHOUSE', 'routeType: HELICOPTER')
        .replace('minAge: 1', 'minAge: 0'),
    );
    const result = await ops('catalogue', 'import', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('routes[0].routeType: must be one of TEAHOUSE, CAMPING, EXPEDITION, PEAK_CLIMBING');
    expect(result.stderr).toContain('ctgs[0].minAge: must be >= 1');
    expect(await server.orm.em.fork().findOne(Route, routeId)).toBeNull();
  });
});

/** What an order looks like in the database, for "nothing changed" checks. */
async function orderState(orderId: string) {
  const em = server.orm.em.fork();
  const order = await em.findOneOrFail(Order, orderId);
  const attempts = await em.find(PaymentAttempt, { orders: { order: orderId } }, { orderBy: { createdAt: 'asc' } });
  return {
    status: order.status,
    paidAt: order.paidAt ?? null,
    totalAmount: order.totalAmount,
    version: order.version,
    attempts: attempts.map(
      (attempt) => `${attempt.paymentRef} ${attempt.gateway} ${attempt.status} ${attempt.closedReason ?? ''}`,
    ),
    auditEntries: await em.count(AuditEntry, { order: orderId }),
  };
}

async function refused(args: string[], message: RegExp) {
  const result = await ops(...args, '--json');
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(JSON.parse(result.stderr)).toEqual({ error: expect.stringMatching(message) });
}

const getOrder = (identifier: string) =>
  client.op('getOrder', 'GET', `${ORDERS}/${encodeURIComponent(identifier)}`, undefined, { token: partner.token });

describe('ops order show REF', () => {
  it('shows status, settlement type, totals, company, traveller, group, promo slots and payment attempts, by order reference or order number', async () => {
    const owner = await newSalesCompany(server);
    const code = await newCode(server, owner);
    const group = await placeGroup(server, client, partner, 2);
    const placed = first(group.orders, 'the group');
    await client.op(
      'applyOrderPromo',
      'POST',
      `${ORDERS}/${placed.orderRef}/promo`,
      { promoCode: code },
      { token: partner.token },
    );
    const started = (await pay(client, partner, placed.orderRef, { gateway: 'card_gateway' })).body.data;

    const shown = await json('order', 'show', placed.orderRef);
    expect(shown).toMatchObject({
      orderId: placed.orderId,
      orderRef: placed.orderRef,
      orderNumber: placed.orderNumber,
      status: 'PENDING',
      settlementType: 'ONLINE',
      company: { id: partner.companyId, name: 'Annapurna Ascents' },
      travellers: [{ touristId: expect.any(String), name: expect.any(String), email: expect.any(String) }],
      groupRef: group.groupRef,
      totals: {
        currency: 'NPR',
        subtotal: '4500.00',
        companyPromoDiscount: '450.00',
        agentPromoDiscount: '0.00',
        totalAmount: '4050.00',
      },
      promoSlots: {
        companyPromoCode: code,
        agentPromoCode: null,
        binding: { type: 'COMPANY', ownerId: owner.id, ownerName: owner.name },
      },
      paidAt: null,
      paymentAttempts: [
        {
          paymentRef: started.paymentRef,
          gateway: 'card_gateway',
          scope: 'ORDER',
          status: 'INITIATED',
          amount: '4050.00',
          closedReason: null,
        },
      ],
      auditEntries: [],
    });
    expect(await json('order', 'show', placed.orderNumber)).toEqual(shown);

    const text = await ops('order', 'show', placed.orderRef);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${placed.orderRef} (${placed.orderNumber})  PENDING  ONLINE  NPR 4050.00`);
    expect(text.stdout).toContain(`group ${group.groupRef}`);
    expect(text.stdout).toContain(`${started.paymentRef}  INITIATED  card_gateway  NPR 4050.00`);
  });

  it('escapes what a terminal would act on: a traveller name with a newline, a forged status line, ANSI and OSC sequences', async () => {
    const placed = await placeOrder(server, client, partner);
    // The API refuses such a name now (issue 14); rows written before that, or by other paths, still hold one.
    const hostile = `Anna\n${placed.orderRef} (${placed.orderNumber})  PAID  ONLINE\u001b[2J\u001b]0;owned\u0007\u009b31m\u202e`;
    const em = server.orm.em.fork();
    const order = await em.findOneOrFail(Order, { orderRef: placed.orderRef }, { populate: ['traveller'] });
    order.traveller.name = hostile;
    await em.flush();

    const text = await ops('order', 'show', placed.orderRef);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text.stdout.split('\n').filter((line) => line.startsWith(placed.orderRef))).toEqual([
      expect.stringContaining('PENDING'),
    ]);
    expect(text.stdout).toContain(
      `traveller Anna\\n${placed.orderRef} (${placed.orderNumber})  PAID  ONLINE\\x1B[2J\\x1B]0;owned\\x07\\x9B31m\\u202E <`,
    );

    const printed = await ops('order', 'show', placed.orderRef, '--json');
    expect(printed.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(JSON.parse(printed.stdout).travellers[0].name).toBe(hostile);
  });

  it('refuses an unknown order with exit 1', async () => {
    await refused(['order', 'show', 'ORD-2026-999999'], /^Order ORD-2026-999999 not found$/);
    await refused(['order', 'show', 'not-an-order'], /not found/);
  });
});

describe('ops order cancel REF', () => {
  it('cancels a PENDING order: its open payment attempt closes (ORDER_CANCELLED), its promo code use is given back, an audit entry is written, and the partner reads CANCELLED', async () => {
    const code = await newCode(server, await newSalesCompany(server), { usageLimit: 1 });
    const placed = await placeOrder(server, client, partner, { promoCode: code });
    expect(await usedCount(server, code)).toBe(1);
    const started = (await pay(client, partner, placed.orderRef, { gateway: 'wallet_gateway' })).body.data;

    expect(await json('order', 'cancel', placed.orderNumber)).toEqual({
      orderRef: placed.orderRef,
      status: 'CANCELLED',
      releasedPromoCodes: [code],
      closedPaymentRefs: [started.paymentRef],
      totalAmount: '4500.00',
      currency: 'NPR',
    });
    expect(await usedCount(server, code)).toBe(0);
    const attempt = await server.orm.em.fork().findOneOrFail(PaymentAttempt, { paymentRef: started.paymentRef });
    expect(attempt).toMatchObject({ status: 'CANCELLED', closedReason: 'ORDER_CANCELLED' });

    const shown = await json('order', 'show', placed.orderRef);
    expect(shown.promoSlots).toMatchObject({ companyPromoCode: null, agentPromoCode: null, binding: { type: 'NONE' } });
    expect(shown.auditEntries).toEqual([
      {
        at: expect.any(String),
        actor: expect.stringMatching(/^operator-cli:.+/),
        action: 'ORDER_CANCELLED',
        // One shape for every cancellation, whoever asks (decision record 0075).
        details: {
          previousStatus: 'PENDING',
          reason: 'OPERATOR',
          rule: 'UNPAID',
          paymentRef: null,
          refundRef: null,
          refundAmount: '0.00',
          cancellationFee: '0.00',
          releasedPromoCodes: [code],
          totalBefore: '4050.00',
          totalAfter: '4500.00',
          currency: 'NPR',
          closedPaymentRefs: [started.paymentRef],
        },
      },
    ]);

    // What the partner sees stays on contract (client.op validates every body against the spec).
    const read = await getOrder(placed.orderRef);
    expectStatus(read, 200);
    expect(read.body.data).toMatchObject({
      status: 'CANCELLED',
      paidAt: null,
      promoCodes: { companyPromoCode: null, agentPromoCode: null },
    });
    const status = await paymentStatus(client, partner, placed.orderRef);
    expect(status.body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'CANCELLED',
      paymentRef: started.paymentRef,
    });
    const payAgain = await pay(client, partner, placed.orderRef, { gateway: 'card_gateway' });
    expectStatus(payAgain, 400);
    expect(payAgain.body.message).toContain('CANCELLED');
    // The code's one use is free again for another order.
    const next = await client.op(
      'createOrders',
      'POST',
      ORDERS,
      {
        touristId: read.body.data.traveller.touristId,
        ctgId: read.body.data.package.ctgId,
        customRouteName: 'Kathmandu valley rim walk',
        departureDate: read.body.data.departureDate,
        promoCode: code,
      },
      { token: partner.token },
    );
    expect(next.body.data.promoApplyResult).toMatchObject({ applied: true });
  });

  it('refuses a PAID, a CANCELLED and an unknown order with exit 1 and changes nothing', async () => {
    const paid = await placeOrder(server, client, partner, { settlementType: 'CASH' });
    await json('order', 'record-cash', paid.orderRef, '--amount', '4500.00');
    const paidBefore = await orderState(paid.orderId);
    await refused(['order', 'cancel', paid.orderRef], /is PAID; only a PENDING order can be cancelled/);
    expect(await orderState(paid.orderId)).toEqual(paidBefore);

    const cancelled = await placeOrder(server, client, partner);
    await json('order', 'cancel', cancelled.orderRef);
    const cancelledBefore = await orderState(cancelled.orderId);
    await refused(['order', 'cancel', cancelled.orderRef], /was already cancelled on /);
    expect(await orderState(cancelled.orderId)).toEqual(cancelledBefore);

    await refused(['order', 'cancel', 'ORDN-2026-999999'], /not found/);
  });
});

describe('ops order record-cash REF --amount A', () => {
  it('marks a PENDING CASH order PAID with one successful cash payment for its total and an audit entry; payment-status reports CASH', async () => {
    const placed = await placeOrder(server, client, partner, { settlementType: 'CASH' });
    const recorded = await json(
      'order',
      'record-cash',
      placed.orderRef,
      '--amount',
      '4500.00',
      '--note',
      'receipt 0042',
    );
    expect(recorded).toEqual({
      orderRef: placed.orderRef,
      status: 'PAID',
      paidAt: expect.any(String),
      paymentRef: expect.stringMatching(new RegExp(`^${placed.orderRef}-\\d{13}$`)),
      amount: '4500.00',
      currency: 'NPR',
      policyNumber: expect.stringMatching(/^SBX-POL-\d{4}-\d{6,}$/),
    });

    const shown = await json('order', 'show', placed.orderRef);
    expect(shown).toMatchObject({ status: 'PAID', settlementType: 'CASH', paidAt: recorded.paidAt });
    expect(shown.paymentAttempts).toEqual([
      expect.objectContaining({
        paymentRef: recorded.paymentRef,
        gateway: 'cash',
        status: 'SUCCESS',
        amount: '4500.00',
        attemptAmount: '4500.00',
        refundAmount: '0.00',
      }),
    ]);
    expect(shown.auditEntries).toEqual([
      {
        at: recorded.paidAt,
        actor: expect.stringMatching(/^operator-cli:.+/),
        action: 'CASH_RECORDED',
        details: { paymentRef: recorded.paymentRef, amount: '4500.00', currency: 'NPR', note: 'receipt 0042' },
      },
    ]);

    const payment = await ops('payment', 'show', recorded.paymentRef);
    expect(payment.stdout).toContain(`${recorded.paymentRef}  SUCCESS  NPR 4500.00  cash`);
    expect(payment.stdout).toContain(`cash recorded by an operator ${recorded.paidAt}`);

    const status = await paymentStatus(client, partner, placed.orderRef);
    expect(status.body.data).toEqual({
      orderRef: placed.orderRef,
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentRef: recorded.paymentRef,
      paymentMethod: 'CASH',
      amount: 4500,
      currency: 'NPR',
      completedAt: recorded.paidAt,
      policyNumber: recorded.policyNumber,
    });
    expect((await getOrder(placed.orderRef)).body.data).toMatchObject({
      status: 'PAID',
      settlementType: 'CASH',
      paidAt: recorded.paidAt,
    });
  });

  it('refuses a second record-cash on the PAID order: nothing is doubled', async () => {
    const placed = await placeOrder(server, client, partner, { settlementType: 'CASH' });
    await json('order', 'record-cash', placed.orderRef, '--amount', '4500');
    const before = await orderState(placed.orderId);
    await refused(
      ['order', 'record-cash', placed.orderRef, '--amount', '4500.00'],
      /is PAID; cash can only be recorded for a PENDING order/,
    );
    expect(await orderState(placed.orderId)).toEqual(before);
    expect(before.attempts).toHaveLength(1);
    expect(before.auditEntries).toBe(1);
  });

  it('refuses an ONLINE order, an amount other than the total, and a CANCELLED order, changing nothing', async () => {
    const online = await placeOrder(server, client, partner);
    const onlineBefore = await orderState(online.orderId);
    await refused(
      ['order', 'record-cash', online.orderRef, '--amount', '4500.00'],
      /is settled ONLINE; it is paid online through the pay operation/,
    );
    expect(await orderState(online.orderId)).toEqual(onlineBefore);

    const cash = await placeOrder(server, client, partner, { settlementType: 'CASH' });
    const cashBefore = await orderState(cash.orderId);
    await refused(
      ['order', 'record-cash', cash.orderRef, '--amount', '4499.99'],
      /^amount NPR 4499\.99 does not match the order total NPR 4500\.00$/,
    );
    await refused(['order', 'record-cash', cash.orderRef, '--amount', '4500.01'], /does not match the order total/);
    expect(await orderState(cash.orderId)).toEqual(cashBefore);

    await json('order', 'cancel', cash.orderRef);
    await refused(
      ['order', 'record-cash', cash.orderRef, '--amount', '4500.00'],
      /is CANCELLED; cash can only be recorded for a PENDING order/,
    );
  });

  it('refuses an amount that is not a decimal with at most two decimals, and a missing --amount, before touching the order', async () => {
    const cash = await placeOrder(server, client, partner, { settlementType: 'CASH' });
    const before = await orderState(cash.orderId);
    for (const amount of ['4500.001', '4,500', '-4500', 'abc', '']) {
      await refused(
        ['order', 'record-cash', cash.orderRef, '--amount', amount],
        /^--amount must be a decimal amount with at most two decimals/,
      );
    }
    const missing = await ops('order', 'record-cash', cash.orderRef);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--amount <amount>' not specified");
    expect(await orderState(cash.orderId)).toEqual(before);
  });
});

describe('ops payment refunds, ops payment refund REF --note N (an alias of ops refund confirm)', () => {
  it("lists a wallet payment captured after the order was cancelled as owed back, confirms its MANUAL refund (REFUNDED, the refund's own audit entry) and refuses a second record", async () => {
    const placed = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, placed.orderRef, { gateway: 'wallet_gateway' })).body.data;
    await json('order', 'cancel', placed.orderRef);
    // The wallet's payment page cannot be voided: the customer still pays it.
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_WALLET)).callbackUrl!);
    expect((await paymentStatus(client, partner, placed.orderRef)).body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUND_PENDING',
    });

    expect(await json('payment', 'refunds')).toContainEqual(
      expect.objectContaining({
        paymentRef: started.paymentRef,
        refundAmount: '4500.00',
        currency: 'NPR',
        refundReason: 'ORDER_CANCELLED',
        orders: [placed.orderRef],
      }),
    );
    expect((await ops('payment', 'show', started.paymentRef)).stdout).toContain(
      `REFUND OWED: NPR 4500.00 (ORDER_CANCELLED): ops payment refund ${started.paymentRef}`,
    );

    expect(await json('payment', 'refund', started.paymentRef, '--note', 'WALLET-RF-0042')).toEqual({
      paymentRef: started.paymentRef,
      status: 'REFUNDED',
      refundAmount: '4500.00',
      currency: 'NPR',
      refundedAt: expect.any(String),
      refunds: [
        {
          refundRef: expect.stringMatching(/^RFD-/),
          orderRef: placed.orderRef,
          amount: '4500.00',
          status: 'SUCCEEDED',
        },
      ],
    });
    expect((await json('payment', 'refunds')).map((owed: { paymentRef: string }) => owed.paymentRef)).not.toContain(
      started.paymentRef,
    );
    expect((await paymentStatus(client, partner, placed.orderRef)).body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUNDED',
    });
    // Entries written in one transaction share their time: compared as a set.
    expect(
      (await json('order', 'show', placed.orderRef)).auditEntries
        .map((entry: { action: string }) => entry.action)
        .sort(),
    ).toEqual(['ORDER_CANCELLED', 'REFUND_CONFIRMED', 'REFUND_CREATED', 'REFUND_MANUAL']);
    await refused(['payment', 'refund', started.paymentRef, '--note', 'again'], /owes no refund \(refund recorded /);
  });
});

describe('ops db migrate', () => {
  it('when run as the release step, then it applies pending migrations and exits 0 (again: nothing to do, still 0)', async () => {
    expect(await json('db', 'migrate')).toEqual({ migrated: true });
    expect(await json('db', 'migrate')).toEqual({ migrated: true });
  });
});

describe('ops webhook', () => {
  // Stopped by a hook, not at the end of the test, so that a failed test closes it too.
  const receiver = new WebhookReceiver();
  afterAll(() => receiver.stop());

  it('sets an endpoint (secret shown once), sends a test event the receiver verifies, lists the delivery, replays it, rotates the secret and removes the endpoint', async () => {
    const url = await receiver.start();
    const company = await json('company', 'create', '--name', 'Webhook Treks', '--type', 'TRAVEL_AGENCY');
    const endpoint = await json('webhook', 'set', company.id, url);
    expect(endpoint).toEqual({
      endpointId: expect.any(String),
      companyId: company.id,
      url,
      events: ['*'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
      previousSecretUntil: null,
    });
    expect((await json('webhook', 'set', company.id, url)).secret).toBeUndefined();
    receiver.secret = endpoint.secret;
    const { eventId } = await json('webhook', 'test', company.id);
    await receiver.waitFor(() => receiver.unique('webhook.test').length === 1, 60_000);
    // Each probe spawns the command line: give a loaded machine time.
    await receiver.waitFor(
      async () => (await json('webhook', 'deliveries', company.id))[0]?.status === 'SUCCEEDED',
      60_000,
    );
    const [listed] = await json('webhook', 'deliveries', company.id);
    expect(listed).toMatchObject({
      eventId,
      endpointId: endpoint.endpointId,
      type: 'webhook.test',
      status: 'SUCCEEDED',
      attempts: [expect.objectContaining({ attempt: 1, outcome: 'DELIVERED', responseCode: 204 })],
    });
    expect(await json('webhook', 'replay', '--event', eventId)).toEqual({ replayed: [eventId] });
    await receiver.waitFor(() => receiver.verified.length === 2, 60_000);
    expect(receiver.unique()).toHaveLength(1);
    const rotated = await json('webhook', 'rotate-secret', company.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previousSecretUntil)).toBeGreaterThan(Date.now());
    expect(await json('webhook', 'remove', company.id)).toEqual({
      companyId: company.id,
      endpointId: endpoint.endpointId,
      removed: true,
    });
    expect((await ops('webhook', 'replay', '--json')).code).toBe(1);
  });

  it('works on the endpoints partners register through the API: with several, a command names one with --endpoint', async () => {
    const company = await json('company', 'create', '--name', 'Many Hooks Treks', '--type', 'TRAVEL_AGENCY');
    const a = await json('webhook', 'set', company.id, 'http://127.0.0.1:9/a');
    const b = await json('webhook', 'set', company.id, 'http://127.0.0.1:9/b', '--new');
    expect(b.secret).toMatch(/^whsec_/);
    expect((await json('webhook', 'list', company.id)).map((e: { endpointId: string }) => e.endpointId)).toEqual([
      a.endpointId,
      b.endpointId,
    ]);
    const ambiguous = await ops('webhook', 'rotate-secret', company.id, '--json');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('--endpoint');
    expect((await json('webhook', 'rotate-secret', company.id, '--endpoint', b.endpointId)).endpointId).toBe(
      b.endpointId,
    );
    expect(await json('webhook', 'remove', company.id, '--endpoint', a.endpointId)).toEqual({
      companyId: company.id,
      endpointId: a.endpointId,
      removed: true,
    });
    expect(await json('webhook', 'list', company.id)).toEqual([expect.objectContaining({ endpointId: b.endpointId })]);
  });
});

describe('ops refund and ops order cancel --note', () => {
  const cancelByApi = (orderRef: string) =>
    client.op(
      'cancelOrder',
      'POST',
      `${ORDERS}/${orderRef}/cancellation`,
      { reason: 'TRIP_CANCELLED' },
      { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
    );

  it('lists a MANUAL refund, shows it, and confirms it with a note: SUCCEEDED, and the partner reads REFUNDED', async () => {
    const placed = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, placed.orderRef, { gateway: 'wallet_gateway' })).body.data;
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_WALLET)).callbackUrl!);
    const refundRef = (await cancelByApi(placed.orderRef)).body.data.refund.refundRef;

    expect((await json('refund', 'list')).map((row: { refundRef: string }) => row.refundRef)).toContain(refundRef);
    expect(await json('refund', 'show', refundRef)).toMatchObject({
      refundRef,
      status: 'MANUAL',
      orderRef: placed.orderRef,
      gateway: 'wallet_gateway',
      amount: '4500.00',
      fee: '0.00',
    });
    await refused(['refund', 'retry', refundRef], /is MANUAL; only a FAILED refund can be retried/);
    expect(await json('refund', 'confirm', refundRef, '--note', 'WALLET-PORTAL-7781')).toMatchObject({
      refundRef,
      status: 'SUCCEEDED',
      note: 'WALLET-PORTAL-7781',
    });
    await refused(['refund', 'confirm', refundRef, '--note', 'again'], /already SUCCEEDED/);
    expect((await paymentStatus(client, partner, placed.orderRef)).body.data).toMatchObject({
      orderStatus: 'CANCELLED',
      paymentStatus: 'REFUNDED',
    });
  });

  it('cancels a paid order whose cover has started only with --note, with a refund by the fee rules, and refuses an unknown refund', async () => {
    const placed = await placeOrder(server, client, partner);
    const started = (await pay(client, partner, placed.orderRef, { gateway: 'wallet_gateway' })).body.data;
    await deliverCallback(client, (await submitCheckout(started.paymentUrl, APPROVE_WALLET)).callbackUrl!);
    await server.orm.em
      .fork()
      .nativeUpdate(
        Order,
        { orderRef: placed.orderRef },
        { coverageStartDate: '2026-01-01', paidAt: new Date(Date.now() - 40 * 86_400_000) },
      );
    expectStatus(await cancelByApi(placed.orderRef), 400);
    await refused(['order', 'cancel', placed.orderRef], /only a PENDING order can be cancelled without --note/);
    const cancelled = await json(
      'order',
      'cancel',
      placed.orderRef,
      '--note',
      'Evacuated on day 2; underwriter agreed',
    );
    expect(cancelled).toMatchObject({
      orderRef: placed.orderRef,
      status: 'CANCELLED',
      refund: { amount: '4050.00', fee: '450.00', status: 'MANUAL' },
    });
    expect((await getOrder(placed.orderRef)).body.data.cancellation).toMatchObject({
      reason: 'OPERATOR',
      note: 'Evacuated on day 2; underwriter agreed',
      refund: { cancellationFee: 450 },
    });
    await refused(['refund', 'show', 'RFD-2026-999999'], /no refund RFD-2026-999999/);
  });
});
