import { chromium, type Browser } from 'playwright-core';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import type { RunningServer } from '../../src/server';
import { startTestServer } from '../support/test-server';
import { requireSystemTool } from '../support/system-tools';

const document = loadSpecDocument() as unknown as {
  info: { description: string };
  paths: Record<string, Record<string, { summary?: string; operationId?: string }>>;
};
const summaries = Object.values(document.paths).flatMap((operations) =>
  Object.values(operations)
    .filter((operation) => operation.operationId)
    .map((operation) => operation.summary as string),
);

describe('GET /docs in a browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // Debian's package: playwright-core downloads no browser of its own. CHROMIUM_PATH names another.
    const executablePath = process.env.CHROMIUM_PATH ?? requireSystemTool('chromium');
    server = await startTestServer();
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renders the getting-started guide, every operation and the changelog, without a console error or a request outside the server', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
    // The page is self-contained: anything fetched from elsewhere (a CDN logo, fonts) is a problem
    // even where the network lets it through.
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(server.url) && !url.startsWith('data:')) problems.push(`external request: ${url}`);
    });
    page.on('response', (answer) => {
      if (answer.status() >= 400) problems.push(`HTTP ${answer.status()}: ${answer.url()}`);
    });

    const response = await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.api-content', { timeout: 30_000 });
    const text = (await page.textContent('body')) ?? '';

    expect(summaries.length).toBeGreaterThan(20);
    expect(summaries.filter((summary) => !text.includes(summary))).toEqual([]);
    for (const heading of [
      'Getting started',
      'The booking flow',
      'Sandbox credentials',
      'Test cards and wallets',
      'Testing your integration',
      'Retries',
      'Paying: idempotency and reconciliation',
      'Changelog',
    ]) {
      expect(text).toContain(heading);
    }
    expect(text).toContain('4242 4242 4242 4242');
    expect(text).toContain('2.3.0');
    expect(problems).toEqual([]);
  });
});
