import { useTestServer } from '../support/test-server';

/** The names of the queues this server's own pg-boss workers take jobs from. */
const workedQueues = (server: { queue: { boss: { getWipData(): Array<{ name: string }> } } }) =>
  [...new Set(server.queue.boss.getWipData().map((worker) => worker.name))].sort();

/**
 * Test servers share one database: a server running background jobs acts on every file's rows.
 * So a test server runs none unless its file asks for them.
 */
describe('a test server whose file does not ask for background jobs', () => {
  const { server } = useTestServer();

  it('works no queue: no webhook delivery worker, no periodic job', () => {
    expect(workedQueues(server)).toEqual([]);
  });

  it('starts no refund pass after a write', () => {
    expect(server.payments.kickRefunds).toBeUndefined();
  });

  it('still runs a job when the test calls it', async () => {
    await expect(server.refunds.runOnce()).resolves.toMatchObject({ tried: expect.any(Number) });
    await expect(server.webhooks.relayOnce()).resolves.toEqual(expect.any(Number));
  });
});

describe('a test server whose file asks for background jobs', () => {
  const { server, databaseUrl } = useTestServer({ backgroundJobs: true });

  it('works the webhook delivery queue and the periodic jobs, on a database of its own', () => {
    expect(workedQueues(server)).toEqual(
      expect.arrayContaining([
        'webhook-delivery',
        'refund-execution',
        'draft-purge',
        'token-purge',
        'idempotent-create-purge',
      ]),
    );
    expect(server.payments.kickRefunds).toEqual(expect.any(Function));
    expect(databaseUrl()).not.toBe(process.env.TEST_DATABASE_URL);
  });
});
