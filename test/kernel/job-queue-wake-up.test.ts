import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/kernel/logging/logger';
import { startJobQueue, type JobQueue } from '../../src/kernel/jobs/job-queue';
import { until } from '../support/eventually';

/**
 * Webhook delivery workers wait for the relay's NOTIFY (sent by pg-boss's insert inside the
 * relay's transaction, so delivered at its commit) and poll only as a slow backstop. This pins
 * what that design relies on in pg-boss: a NOTIFY that arrives while a worker is not waiting (busy
 * with a job) is not lost; the worker fetches again as soon as it is free, long before the poll.
 */
describe('a queue that wakes its workers by NOTIFY', () => {
  let queue: JobQueue;
  const BACKSTOP_SECONDS = 120;

  beforeAll(async () => {
    queue = await startJobQueue(process.env.TEST_DATABASE_URL as string, createLogger('silent'));
  });
  afterAll(() => queue.stop());

  it('when a job is queued while the only worker is busy, then the worker takes it once free, without waiting for its poll', async () => {
    const name = `wake-up-${randomUUID()}`;
    await queue.boss.createQueue(name, { notify: true });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    const handled: string[] = [];
    await queue.boss.work<{ label: string }>(
      name,
      { batchSize: 1, notifyPollingIntervalSeconds: BACKSTOP_SECONDS, pollingIntervalSeconds: BACKSTOP_SECONDS },
      async ([job]) => {
        if (job?.data.label === 'first') {
          started();
          await released;
        }
        handled.push(job?.data.label ?? '');
      },
    );

    await queue.boss.send(name, { label: 'first' });
    await firstStarted;
    await queue.boss.send(name, { label: 'second' });
    release();

    // Well inside the backstop: only the NOTIFY heard while busy can have woken the worker.
    await until('the second job to be handled', () => handled.length === 2, { timeoutMs: 30_000, intervalMs: 50 });
    expect(handled).toEqual(['first', 'second']);
  });
});
