import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RunningServer } from '../../src/server';
import { Order } from '../../src/modules/orders/entities/order';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { startTestServer } from '../support/test-server';
import { requireSystemTool } from '../support/system-tools';
import { expectStatus } from '../support/expect-status';
import { GLOSSARY } from '../../src/modules/certificates/glossary';
import { sfntFromWoff } from '../../src/modules/certificates/woff';

/**
 * The public verify page as a checkpoint officer's phone shows it (390 x 844, a common phone's
 * viewport): in every state, no date breaks across lines, nothing runs off the screen sideways,
 * the verdict is on the first screen, and a screenshot of it is taken (kept in VERIFY_SCREENSHOTS
 * when set, to look at).
 */
const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let client: ApiClient;
let browser: Browser;
let agency: TestPartner;
const shots = process.env.VERIFY_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'verify-screens-'));

/**
 * A fontconfig that adds Noto Sans Devanagari to the system's faces. The page names the face and
 * uses the phone's own (Android ships it, iOS has its Devanagari faces); this machine has none, and
 * without one Chromium drew the Nepali page in empty boxes that its text checks could not see.
 */
function withDevanagariFace(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-fonts-'));
  const files = path.join(__dirname, '../../node_modules/@fontsource/noto-sans-devanagari/files');
  fs.mkdirSync(path.join(directory, 'fonts'));
  for (const weight of [400, 700]) {
    // As TrueType, as the certificate embeds it: Chromium's own FreeType reads no WOFF from fontconfig.
    const file = `noto-sans-devanagari-devanagari-${weight}-normal`;
    const woff = fs.readFileSync(path.join(files, `${file}.woff`));
    fs.writeFileSync(path.join(directory, 'fonts', `${file}.ttf`), sfntFromWoff(woff));
  }
  const config = path.join(directory, 'fonts.conf');
  fs.writeFileSync(
    config,
    '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>' +
      '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>' +
      `<dir>${path.join(directory, 'fonts')}</dir><cachedir>${path.join(directory, 'cache')}</cachedir></fontconfig>`,
  );
  return config;
}

beforeAll(async () => {
  const executablePath = process.env.CHROMIUM_PATH ?? requireSystemTool('chromium');
  server = await startTestServer();
  client = new ApiClient(server.url);
  agency = await newPartner(server, client);
  browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox'],
    env: { ...process.env, FONTCONFIG_FILE: withDevanagariFace() },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A card-paid order's policy number and check code, its window and status set as the state needs. */
async function policy(changes: Partial<Pick<Order, 'status' | 'coverageStartDate' | 'coverageEndDate'>> = {}) {
  const order = await placeOrder(server, client, agency);
  const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
  const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
  if (!checkout.callbackUrl) throw new Error(`checkout refused: ${checkout.html}`);
  await deliverCallback(client, checkout.callbackUrl);
  const em = server.orm.em.fork();
  if (Object.keys(changes).length) await em.nativeUpdate(Order, { orderRef: order.orderRef }, changes);
  const { policyNumber, verificationCode } = await em.findOneOrFail(Order, { orderRef: order.orderRef });
  return { policyNumber: policyNumber ?? '', code: verificationCode ?? '' };
}

interface Measured {
  dates: Array<{ text: string; lines: number }>;
  scrollWidth: number;
  verdictBottom: number;
  text: string;
}

/** What the phone shows: every date's line boxes, the widest scroll, where the verdict sits, and a screenshot. */
async function onPhone(url: string, name: string) {
  const page: Page = await browser.newPage({ viewport: PHONE, deviceScaleFactor: 1 });
  try {
    const response = await page.goto(url);
    // Run in the page (a string: this project compiles without the DOM's types).
    const measured = await page.evaluate<Measured>(`({
      dates: [...document.querySelectorAll('.date')].map((element) => ({
        text: element.textContent,
        lines: element.getClientRects().length,
      })),
      scrollWidth: document.documentElement.scrollWidth,
      verdictBottom: document.querySelector('h1')?.getBoundingClientRect().bottom ?? Infinity,
      text: document.body.innerText,
    })`);
    const screenshot = await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
    return { status: response?.status() ?? 0, screenshot, ...measured };
  } finally {
    await page.close();
  }
}

const today = kathmanduToday();
const STATES: Array<[string, () => Promise<{ policyNumber: string; code: string }>, string]> = [
  ['valid', () => policy({ coverageStartDate: addDays(today, -1), coverageEndDate: addDays(today, 14) }), 'VALID'],
  ['not yet in force', () => policy(), 'NOT YET IN FORCE'],
  ['expired', () => policy({ coverageStartDate: '2025-01-01', coverageEndDate: '2025-01-14' }), 'EXPIRED'],
  ['cancelled', () => policy({ status: 'CANCELLED' as Order['status'] }), 'CANCELLED'],
];

describe('the verify page on a 390 x 844 phone', () => {
  it.each(STATES)(
    'when the policy is %s, then no date breaks, nothing overflows, and the verdict is on the first screen',
    async (name, made, headline) => {
      const { policyNumber, code } = await made();
      const shown = await onPhone(`${server.url}/verify/${policyNumber}?code=${code}`, name.replace(/ /g, '-'));
      expectStatus(shown, 200);
      expect(shown.text).toContain(headline);
      expect(shown.dates.length).toBeGreaterThanOrEqual(3);
      expect(shown.dates.filter((date) => date.lines !== 1)).toEqual([]);
      expect(shown.scrollWidth).toBeLessThanOrEqual(PHONE.width);
      expect(shown.verdictBottom).toBeLessThanOrEqual(PHONE.height);
      expect(shown.screenshot.length).toBeGreaterThan(10_000);
    },
  );

  const NEPALI: Record<string, string> = {
    valid: GLOSSARY.valid.ne,
    'not yet in force': GLOSSARY.notYetInForceFrom.ne.split(' — ')[0] ?? '',
    expired: GLOSSARY.expired.ne,
    cancelled: GLOSSARY.cancelled.ne,
  };
  it.each(STATES)(
    'when the policy is %s and the page is asked for in Nepali, then it reads in Devanagari and still no date breaks, nothing overflows, and the verdict is on the first screen',
    async (name, made) => {
      const { policyNumber, code } = await made();
      const shown = await onPhone(
        `${server.url}/verify/${policyNumber}?code=${code}&lang=ne`,
        `nepali-${name.replace(/ /g, '-')}`,
      );
      expectStatus(shown, 200);
      expect(shown.text).toContain(NEPALI[name]);
      expect(shown.text).toContain(GLOSSARY.coverageWindow.ne);
      expect(shown.dates.length).toBeGreaterThanOrEqual(3);
      expect(shown.dates.filter((date) => date.lines !== 1)).toEqual([]);
      expect(shown.scrollWidth).toBeLessThanOrEqual(PHONE.width);
      expect(shown.verdictBottom).toBeLessThanOrEqual(PHONE.height);
      expect(shown.screenshot.length).toBeGreaterThan(10_000);
    },
  );

  it('when the officer types a wrong check code into the field, then the page says it does not match; the right one shows the initials', async () => {
    const { policyNumber, code } = await policy();
    const page = await browser.newPage({ viewport: PHONE });
    try {
      await page.goto(`${server.url}/verify/${policyNumber}`);
      await page.fill('#code', 'ZZZZZZ');
      await Promise.all([page.waitForURL(/code=ZZZZZZ/), page.click('button[type=submit]')]);
      expect(await page.textContent('.mismatch')).toContain('This check code does not match this policy.');
      await page.screenshot({ path: path.join(shots, 'wrong-code.png'), fullPage: true });
      await page.fill('#code', code.toLowerCase());
      await Promise.all([page.waitForURL(new RegExp(`code=${code.toLowerCase()}`)), page.click('button[type=submit]')]);
      expect(await page.locator('.mismatch').count()).toBe(0);
      expect(await page.locator('#code').count()).toBe(0);
      expect(await page.textContent('dl')).toMatch(/Traveller\s*[^\s]+\./);
    } finally {
      await page.close();
    }
  });

  it('when the number is unknown, then the not-found page fits the phone too', async () => {
    const shown = await onPhone(`${server.url}/verify/POL-2026-999999`, 'not-found');
    expectStatus(shown, 404);
    expect(shown.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    expect(shown.text).toContain('Policy not found');
  });
});
