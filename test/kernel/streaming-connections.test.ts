import { randomUUID } from 'node:crypto';
import { StreamingConnections } from '../../src/kernel/db/streaming-connections';

/** Two server processes' streaming pools over one database: a company's export slots are counted across both. */
describe('the export slots of a company', () => {
  const settings = { connections: 4, perCompany: 2, waitMs: 2000 };
  const url = process.env.TEST_DATABASE_URL as string;
  const processes = [new StreamingConnections(url, settings), new StreamingConnections(url, settings)];
  afterAll(() => Promise.all(processes.map((pool) => pool.close())));

  it('refuses a third export on another process while two run on the first, and frees a slot when one ends', async () => {
    const [first, second] = processes as [StreamingConnections, StreamingConnections];
    const company = randomUUID();
    const running = [await first.lease(company), await first.lease(company)];
    await expect(second.lease(company)).rejects.toMatchObject({ kind: 'too-many', details: { retryAfterSeconds: 30 } });

    // Another company is not held up by this one.
    const other = await second.lease(randomUUID());
    other.release(false);

    running[0]?.release(false);
    const third = await second.lease(company);
    third.release(false);
    running[1]?.release(false);
  });

  it('frees the slot of an export whose connection died', async () => {
    const [first, second] = processes as [StreamingConnections, StreamingConnections];
    const company = randomUUID();
    const leases = [await first.lease(company), await first.lease(company)];
    await leases[0]?.client.query('select pg_terminate_backend(pg_backend_pid())').catch(() => undefined);
    leases[0]?.release(true);
    const again = await second.lease(company);
    again.release(false);
    leases[1]?.release(false);
  });
});
