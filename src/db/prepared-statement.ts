import type { EntityManager } from '@mikro-orm/postgresql';

/** A statement PostgreSQL parses once per pooled connection and then only binds and runs. */
export interface PreparedStatement {
  /** Unique per statement text: PostgreSQL keeps it under this name on each connection. */
  name: string;
  text: string;
}

interface DriverConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<DriverConnection>;
  releaseConnection(connection: DriverConnection): Promise<void>;
}

/**
 * Runs a prepared statement on a connection of the ORM's own pool, past the ORM. For the
 * statements every request pays (the bearer check, the quote insert): the ORM's raw path inlines
 * the parameters into a new SQL text each time, which PostgreSQL then parses and plans anew; the
 * two together were a quarter of the server's CPU per quote (BENCHMARKS.md). Auto-commit only: a
 * statement run here is not part of a transaction the entity manager holds, so that is refused.
 */
export async function runPrepared<Row>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  if (em.isInTransaction()) throw new Error(`prepared statement ${statement.name} cannot join the open transaction`);
  const client = em.getConnection().getKnex().client as KnexClient;
  const connection = await client.acquireConnection();
  try {
    const result = await connection.query({ name: statement.name, text: statement.text, values });
    return result.rows as Row[];
  } finally {
    await client.releaseConnection(connection);
  }
}
