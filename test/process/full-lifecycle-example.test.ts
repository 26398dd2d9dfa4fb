import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningServer } from '../../src/server';
import { startTestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');

/**
 * `npm run example:lifecycle` (issue 37): a partner's code drives two policies' whole life
 * against a fresh sandbox server through the typed client and its sandbox helpers alone, with
 * every webhook verified by the official `standardwebhooks` library; a non-zero exit rejects the
 * run with its output, and the child is stopped after 60 s.
 */
describe('npm run example:lifecycle', () => {
  let server: RunningServer;

  beforeAll(async () => {
    // Background jobs on: the example waits for webhooks, which the relay and delivery workers send.
    server = await startTestServer({}, undefined, { backgroundJobs: true });
    // Against the packed client, as a partner installs it (scripts/example-client.mjs).
    execFileSync('npm', ['run', '-s', 'example:build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }, 120_000);
  afterAll(() => server?.stop());

  it('books, pays, cancels after the free look with the fee, fails the refund and moves a second order, every webhook verified', async () => {
    // Asynchronously: the server answers from this very process.
    const run = await promisify(execFile)(process.execPath, ['dist/examples/full-lifecycle.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, BASE_URL: server.url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    const steps = run.stdout
      .split('\n')
      .map((line) => line.split(/\s+/)[0])
      .filter(Boolean);
    expect(steps.filter((step) => step !== 'webhook')).toEqual([
      'webhooks',
      'booked',
      'paid',
      'clock',
      'cancelled',
      'refund',
      'booked',
      'paid',
      'moved',
    ]);
    expect(run.stdout).toMatch(
      /^cancelled ORD-\d{4}-\d+: CANCELLATION_FEE, [\d.]+ back, [\d.]+ kept, refund RFD-\d{4}-\d+ MANUAL$/m,
    );
    expect(run.stdout).toMatch(/^refund +RFD-\d{4}-\d+: FAILED$/m);
    const verified = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('webhook '))
      .map((line) => line.split(/\s+/)[1]);
    expect(verified).toEqual(
      expect.arrayContaining(['order.paid', 'order.cancelled', 'refund.failed', 'order.amended']),
    );
  }, 90_000);
});
