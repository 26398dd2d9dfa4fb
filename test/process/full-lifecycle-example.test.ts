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

  it('books, pays, cancels after the free look with the fee, fails the card refund, moves a second order, drives its assistance case, pays a third after pending at the provider and filters out a marked test event, every webhook verified', async () => {
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
      'case',
      'case',
      'case',
      'case',
      'booked',
      'pending',
      'paid',
      'event',
    ]);
    // A failed card refund: it waited PENDING for the sandbox helper, which refused it.
    expect(run.stdout).toMatch(
      /^cancelled ORD-\d{4}-\d+: CANCELLATION_FEE, [\d.]+ back, [\d.]+ kept, refund RFD-\d{4}-\d+ PENDING$/m,
    );
    expect(run.stdout).toMatch(/^refund +RFD-\d{4}-\d+: FAILED$/m);
    expect(run.stdout).toMatch(/^case +AST-\d{4}-\d+: AUTHORISED, guarantee SBX-GOP-AST-\d{4}-\d+ up to 650000 NPR$/m);
    expect(run.stdout).toMatch(/^case +AST-\d{4}-\d+: COMPLETED\b/m);
    expect(run.stdout).toMatch(/^pending +ORD-\d{4}-\d+: PENDING, payment INITIATED \(undecided at the provider\)$/m);
    expect(run.stdout).toMatch(
      /^event +evt_[0-9a-f]{32}: refund.failed sandbox=true, left out of GET \/events\?sandbox=false$/m,
    );
    const verified = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('webhook '))
      .map((line) => line.split(/\s+/)[1]);
    expect(verified).toEqual(
      expect.arrayContaining([
        'order.paid',
        'order.cancelled',
        'refund.failed',
        'order.amended',
        'assistance_case.opened',
        'assistance_case.updated',
      ]),
    );
  }, 90_000);
});
