import { runPrepared } from '../../src/kernel/db/prepared-statement';
import type { RunningServer } from '../../src/server';
import { first } from '../support/elements';
import { startTestServer } from '../support/test-server';

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const ADD = { name: 'test-add', text: 'select $1::int + $2::int as sum' };

describe('prepared statements on the ORM pool', () => {
  it('binds the values and returns the rows, also when the same statement runs again on a connection', async () => {
    const em = server.orm.em.fork();
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => runPrepared<{ sum: number }>(em, ADD, [n, 10])));
    expect(results.map((rows) => first(rows, 'the rows').sum)).toEqual([11, 12, 13, 14, 15, 16]);
  });

  it('refuses to run inside an open transaction, which the statement would not be part of', async () => {
    await expect(server.orm.em.fork().transactional((em) => runPrepared(em, ADD, [1, 2]))).rejects.toThrow(/cannot join the open transaction/);
  });

  it('gives every pooled connection back, also when the statement fails', async () => {
    const em = server.orm.em.fork();
    const failing = { name: 'test-fail', text: 'select 1 / $1::int as quotient' };
    for (let i = 0; i < 30; i++) await expect(runPrepared(em, failing, [0])).rejects.toThrow(/division by zero/);
    expect(await runPrepared<{ quotient: number }>(em, failing, [1])).toEqual([{ quotient: 1 }]);
  });
});
