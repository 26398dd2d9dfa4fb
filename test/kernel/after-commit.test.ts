import { afterCommit } from '../../src/kernel/db/after-commit';
import { useTestServer } from '../support/test-server';

/**
 * Decision record 0111: work registered in a transaction (the refund executor's kick) runs once it
 * has committed, so the connection it uses finds what the transaction wrote; never for a
 * transaction rolled back.
 */
const { server } = useTestServer();

// A scratch table of this file's own: what the transaction writes, another connection counts.
beforeAll(() => server.orm.em.fork().execute(`create table if not exists "after_commit_probe" ("name" text not null)`));
afterAll(() => server.orm.em.fork().execute(`drop table if exists "after_commit_probe"`));

describe('work after a commit', () => {
  it('runs after the transaction commits, and finds on another connection what it wrote', async () => {
    const name = `after-commit-${Date.now()}`;
    const seen: string[] = [];
    let found: Promise<number> | undefined;
    await server.orm.em.fork().transactional(async (tx) => {
      await tx.execute(`insert into "after_commit_probe" ("name") values (?)`, [name]);
      afterCommit(tx, () => {
        seen.push('ran');
        found = server.orm.em
          .fork()
          .execute<Array<{ n: string }>>(`select count(*)::text as n from "after_commit_probe" where "name" = ?`, [
            name,
          ])
          .then(([row]) => Number(row?.n ?? 0));
      });
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['ran']);
    await expect(found).resolves.toBe(1);
  });
  it('never runs for a transaction rolled back', async () => {
    const seen: string[] = [];
    await expect(
      server.orm.em.fork().transactional(async (tx) => {
        afterCommit(tx, () => seen.push('ran'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(seen).toEqual([]);
  });

  it('runs at once outside a transaction: nothing is waiting to commit', () => {
    const seen: string[] = [];
    afterCommit(server.orm.em.fork(), () => seen.push('ran'));
    expect(seen).toEqual(['ran']);
  });
});
