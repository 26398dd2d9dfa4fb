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
export async function runPrepared<Row extends QueryResultRow>(
  em: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  if (em.isInTransaction()) throw new Error(`prepared statement ${statement.name} cannot join the open transaction`);
  const pool = await em.getConnection().getNativeClient();
  const result = await pool.query<Row>({ name: statement.name, text: statement.text, values });
  return result.rows;
}

/** What a statement of both paths binds: values the ORM and `pg` turn into the same SQL. */
export type StatementValue = string | number | boolean | null;

/** A statement for runStatement: written once with `?` placeholders (and no other `?`). */
export interface DualStatement extends PreparedStatement {
  /** The same text with `?` placeholders, for the ORM inside a transaction. */
  ormText: string;
}

export function dualStatement(name: string, text: string): DualStatement {
  let position = 0;
  return { name, ormText: text, text: text.replace(/\?/g, () => `$${++position}`) };
}

/**
 * Runs `statement` prepared (runPrepared) in auto-commit, and through the ORM's raw path inside the
 * entity manager's transaction, where a prepared statement would not be part of it: a use case
 * that needs a transaction only sometimes (an assistance case with documents) writes the same
 * rows either way, and a failure is the same exception either way. Values are primitives so that
 * both paths send the same thing.
 */
export async function runStatement<Row extends QueryResultRow>(
  em: EntityManager,
  statement: DualStatement,
  values: StatementValue[],
): Promise<Row[]> {
  if (em.isInTransaction()) return em.execute<Row[]>(statement.ormText, values);
  try {
    return await runPrepared<Row>(em, statement, values);
  } catch (error) {
    // The ORM's exception classes, as its own path throws them (a duplicate is a UniqueConstraintViolationException).
    throw error instanceof Error ? em.getPlatform().getExceptionConverter().convertException(error) : error;
  }
}
