import type { QueryResultRow } from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A statement PostgreSQL parses once per pooled connection and then only binds and runs. */
export interface PreparedStatement {
  /** Unique per statement text: PostgreSQL keeps it under this name on each connection. */
  name: string;
  text: string;
}

/**
 * Runs a prepared statement on a connection of the ORM's own pool (the `pg` Pool MikroORM's
 * PostgreSQL driver creates), past the ORM. For the statements every request pays (the bearer
 * check, the quote insert): the ORM's raw path inlines the parameters into a new SQL text each
 * time, which PostgreSQL then parses and plans anew; the two together were a quarter of the
 * server's CPU per quote (BENCHMARKS.md). A named query makes `pg` prepare it once per pooled
 * connection. Auto-commit only: a statement run here is not part of a transaction the entity
 * manager holds, so that is refused.
 */
export async function runPrepared<Row extends QueryResultRow>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  if (em.isInTransaction()) throw new Error(`prepared statement ${statement.name} cannot join the open transaction`);
  const pool = await em.getConnection().getNativeClient();
  const result = await pool.query<Row>({ name: statement.name, text: statement.text, values });
  return result.rows;
}
