import type { QueryResult, QueryResultRow } from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DualStatement, StatementValue } from './prepared-statement';

/** One statement of a batch: its `?` text and the values its placeholders take. */
export interface Batched {
  statement: DualStatement;
  values: StatementValue[];
}

/**
 * Sends `statements` as one message; answers each one's rows. The first batch of a transaction
 * begins it, and the batch sent with `commit` ends it.
 */
export type SendBatch = <Row extends QueryResultRow = QueryResultRow>(
  statements: readonly Batched[],
  options?: { commit?: boolean },
) => Promise<Row[][]>;

/**
 * A transaction on one connection of the ORM's pool whose statements go in batches: several
 * statements, BEGIN and COMMIT among them, in one message and one round trip (PostgreSQL's simple
 * query protocol). Each statement of a batch is still its own statement: under READ COMMITTED it
 * reads what committed before it started, so a row lock taken by one is waited for before the
 * next reads (decision record 0107). For a use case the bench measures at many partners at once,
 * where each round trip is a socket write and a wake-up on both sides. The values are inlined by
 * the ORM's own formatting, as its raw path does in a transaction. Whatever `work` leaves
 * uncommitted (it threw, or answered without writing) is rolled back; a failure is the ORM's
 * exception, as on its own path.
 */
export async function batchedTransaction<T>(em: EntityManager, work: (send: SendBatch) => Promise<T>): Promise<T> {
  if (em.isInTransaction()) throw new Error('a batched transaction cannot join the open transaction');
  const platform = em.getPlatform();
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  let open = false;
  let broken: Error | undefined;
  const send: SendBatch = async <Row extends QueryResultRow>(
    statements: readonly Batched[],
    { commit = false }: { commit?: boolean } = {},
  ) => {
    const texts = statements.map(({ statement, values }) => platform.formatQuery(statement.ormText, values));
    const begins = !open;
    open = true;
    const text = [...(begins ? ['begin'] : []), ...texts, ...(commit ? ['commit'] : [])].join(';\n');
    // A message of several statements answers one result for each (the types of `pg` know one).
    let answer: QueryResult<Row> | QueryResult<Row>[];
    try {
      answer = await client.query<Row>(text);
    } catch (error) {
      throw error instanceof Error ? platform.getExceptionConverter().convertException(error) : error;
    }
    if (commit) open = false;
    const results: QueryResult<Row>[] = Array.isArray(answer) ? answer : [answer];
    return results.slice(begins ? 1 : 0, (begins ? 1 : 0) + statements.length).map((result) => result.rows);
  };
  try {
    return await work(send);
  } finally {
    if (open)
      await client.query('rollback').catch((error: unknown) => {
        broken = error instanceof Error ? error : new Error(String(error));
      });
    client.release(broken);
  }
}
