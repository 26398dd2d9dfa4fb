import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext } from 'playwright-core';
import type { RunningServer } from '../../src/server';
import { ApiClient } from '../support/http-client';
import { everestQuote, orderFromQuote, ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, paymentStatus } from '../support/payment-fixtures';
import { startTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';
import { requireSystemTool } from '../support/system-tools';

// A real browser (Debian's Chromium) with JavaScript switched off walks the hosted checkout, the
// signed callback and the redirect to a partner return page on plain HTTP (allowed in this test
// only through ALLOW_HTTP_RETURN_URL=true).
let server: RunningServer;
let client: ApiClient;
let partner: TestPartner;
let returnServer: http.Server;
let returnUrl: string;
let context: BrowserContext;
let profileDir: string;

beforeAll(async () => {
  server = await startTestServer({ ALLOW_HTTP_RETURN_URL: 'true', PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' });
  client = new ApiClient(server.url);
  partner = await newPartner(server, client, { name: 'Everest Trails Travel Pvt. Ltd.' });
  returnServer = http.createServer((req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Back at the partner</title><h1>Thank you</h1>');
  });
  await new Promise<void>((resolve) => returnServer.listen(0, '127.0.0.1', resolve));
  returnUrl = `http://127.0.0.1:${(returnServer.address() as AddressInfo).port}/booking/complete`;
  profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-chromium-'));
  // A fresh profile per run (Playwright passes it as --user-data-dir).
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: requireSystemTool('chromium'),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    javaScriptEnabled: false,
  });
});
afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => returnServer?.close(resolve));
  await server?.stop();
  if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
});

/** Quote -> order -> pay, through the API as a partner backend would. */
async function startPayment(gateway: string) {
  const quote = await everestQuote(client, partner);
  const touristId = await newTraveller(server, partner.companyId);
  const created = await client.op('createOrders', 'POST', ORDERS, orderFromQuote(quote, touristId), {
    token: partner.token,
  });
  expectStatus(created, 201);
  const { orderRef } = created.body.data;
  const started = await pay(client, partner, orderRef, { gateway, returnUrl });
  expectStatus(started, 200);
  return { orderRef, quote, ...started.body.data };
}

async function checkout(paymentUrl: string, fill: Record<string, string>, button: 'Pay' | 'Decline' | 'Cancel') {
  const page = await context.newPage();
  try {
    await page.goto(paymentUrl);
    const summary = {
      merchant: await page.textContent('#merchant'),
      orders: await page.textContent('#orders'),
      amount: await page.textContent('#amount'),
    };
    for (const [field, value] of Object.entries(fill)) await page.fill(`#${field}`, value);
    await Promise.all([
      page.waitForURL((url) => url.toString().startsWith(returnUrl)),
      page.click(`button[value="${button.toLowerCase()}"]`),
    ]);
    return { summary, landed: new URL(page.url()) };
  } finally {
    await page.close();
  }
}

describe('hosted checkout in a real browser without JavaScript', () => {
  it('when the customer pays with the approving test card, then the browser lands on returnUrl?paymentRef= and payment-status reads SUCCESS / PAID', async () => {
    const started = await startPayment('card_gateway');
    const { summary, landed } = await checkout(
      started.paymentUrl,
      { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' },
      'Pay',
    );
    expect(summary.merchant).toBe('Himalayan Trek Cover');
    expect(summary.orders).toContain(started.orderRef);
    expect(summary.amount).toBe('NPR 19,600.00');
    expect(landed.searchParams.get('paymentRef')).toBe(started.paymentRef);
    const status = (await paymentStatus(client, partner, landed.searchParams.get('paymentRef')!)).body.data;
    expect(status).toMatchObject({
      orderRef: started.orderRef,
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentMethod: 'CARD_GATEWAY',
      amount: started.quote.totalAmount,
    });
  });

  it('when the customer pays with the test wallet and PIN, then it reads SUCCESS / PAID', async () => {
    const started = await startPayment('wallet_gateway');
    const { landed } = await checkout(started.paymentUrl, { walletId: '9800000001', pin: '1234' }, 'Pay');
    expect(landed.searchParams.get('paymentRef')).toBe(started.paymentRef);
    expect((await paymentStatus(client, partner, started.orderRef)).body.data).toMatchObject({
      orderStatus: 'PAID',
      paymentStatus: 'SUCCESS',
      paymentMethod: 'WALLET_GATEWAY',
    });
  });

  it('when the card is declined, then the browser still returns and it reads FAILED / PENDING', async () => {
    const started = await startPayment('card_gateway');
    const { landed } = await checkout(
      started.paymentUrl,
      { cardNumber: '4000 0000 0000 0002', expiry: '12/30', cvc: '123' },
      'Pay',
    );
    expect(landed.searchParams.get('paymentRef')).toBe(started.paymentRef);
    expect((await paymentStatus(client, partner, started.orderRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'FAILED',
    });
  });

  it('when the customer presses Cancel, then it reads CANCELLED / PENDING', async () => {
    const started = await startPayment('wallet_gateway');
    await checkout(started.paymentUrl, {}, 'Cancel');
    expect((await paymentStatus(client, partner, started.orderRef)).body.data).toMatchObject({
      orderStatus: 'PENDING',
      paymentStatus: 'CANCELLED',
    });
  });
});
