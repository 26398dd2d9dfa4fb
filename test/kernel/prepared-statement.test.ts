import { DriverException } from '@mikro-orm/core';
import { dualStatement, runPrepared, runStatement } from '../../src/kernel/db/prepared-statement';
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
    await expect(server.orm.em.fork().transactional((em) => runPrepared(em, ADD, [1, 2]))).rejects.toThrow(
      /cannot join the open transaction/,
    );
  });

  it('gives every pooled connection back, also when the statement fails', async () => {
    const em = server.orm.em.fork();
    const failing = { name: 'test-fail', text: 'select 1 / $1::int as quotient' };
    for (let i = 0; i < 30; i++) await expect(runPrepared(em, failing, [0])).rejects.toThrow(/division by zero/);
    expect(await runPrepared<{ quotient: number }>(em, failing, [1])).toEqual([{ quotient: 1 }]);
  });
});

describe('statements of both paths (runStatement)', () => {
  const SUM = dualStatement('test-dual-sum', 'select ?::int + ?::int as sum');
  const TRANSACTION = dualStatement('test-dual-transaction', 'select txid_current()::text as id');

  it('numbers the placeholders for the prepared form and keeps them for the ORM', () => {
    expect(SUM.text).toBe('select $1::int + $2::int as sum');
    expect(SUM.ormText).toBe('select ?::int + ?::int as sum');
  });

  it('binds the same values in auto-commit (prepared) and inside a transaction (through the ORM)', async () => {
    expect(await runStatement<{ sum: number }>(server.orm.em.fork(), SUM, [1, 10])).toEqual([{ sum: 11 }]);
    expect(await server.orm.em.fork().transactional((em) => runStatement<{ sum: number }>(em, SUM, [2, 10]))).toEqual([
      { sum: 12 },
    ]);
  });

  it("inside the entity manager's transaction, runs in that transaction", async () => {
    const [inside, around] = await server.orm.em
      .fork()
      .transactional(async (em) => [
        first(await runStatement<{ id: string }>(em, TRANSACTION, []), 'the row').id,
        first(await em.execute<{ id: string }[]>('select txid_current()::text as id'), 'the row').id,
      ]);
    expect(inside).toBe(around);
  });

  it("fails with the ORM's exception on both paths, so callers recognise a failure one way", async () => {
    const failing = dualStatement('test-dual-fail', 'select 1 / ?::int as quotient');
    await expect(runStatement(server.orm.em.fork(), failing, [0])).rejects.toBeInstanceOf(DriverException);
    await expect(server.orm.em.fork().transactional((em) => runStatement(em, failing, [0]))).rejects.toBeInstanceOf(
      DriverException,
    );
  });
});
