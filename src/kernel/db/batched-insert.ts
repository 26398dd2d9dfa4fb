import type { EntityManager } from '@mikro-orm/postgresql';
import type { PreparedStatement } from './prepared-statement';

/** An INSERT of one row and the same INSERT of many rows from arrays (`select * from unnest($1::t[], ...)`). */
export interface BatchableInsert {
  single: PreparedStatement;
  /** Takes one array parameter per column, in the order of `single`'s parameters. */
  many: PreparedStatement;
  /** At most this many rows in one statement. */
  maxRows: number;
}

interface Row {
  values: unknown[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Queryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<unknown>;
}

/**
 * Rows asked for in the same turn of the event loop go to PostgreSQL as one statement: one round
 * trip and one commit for the lot instead of one each. Each caller's promise settles only when
 * its row is committed, as with a statement of its own; if the batch fails, every row is tried
 * again alone, so one row's failure is only its own.
 */
class InsertBatcher {
  private pending: Row[] = [];

  constructor(
    private readonly pool: Queryable,
    private readonly insert: BatchableInsert,
  ) {}

  add(values: unknown[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.flush());
      this.pending.push({ values, resolve, reject });
    });
  }

  private flush(): void {
    const rows = this.pending;
    this.pending = [];
    for (let from = 0; from < rows.length; from += this.insert.maxRows)
      void this.write(rows.slice(from, from + this.insert.maxRows));
  }

  private async write(rows: Row[]): Promise<void> {
    const [first] = rows;
    if (first !== undefined && rows.length > 1) {
      const columns = first.values.map((_, column) => rows.map((row) => row.values[column]));
      try {
        await this.pool.query({ name: this.insert.many.name, text: this.insert.many.text, values: columns });
        for (const row of rows) row.resolve();
        return;
      } catch {
        // Fall through: each row alone, so that only a row that fails by itself fails.
      }
    }
    await Promise.all(
      rows.map((row) =>
        this.pool
          .query({ name: this.insert.single.name, text: this.insert.single.text, values: row.values })
          .then(() => row.resolve(), row.reject),
      ),
    );
  }
}

const batchers = new WeakMap<object, Map<string, InsertBatcher>>();

/**
 * Inserts one row through the batcher of the ORM pool for `insert` (see InsertBatcher).
 * Auto-commit only, like runPrepared: refused inside the entity manager's transaction.
 */
export async function insertBatched(em: EntityManager, insert: BatchableInsert, values: unknown[]): Promise<void> {
  if (em.isInTransaction()) throw new Error(`batched insert ${insert.single.name} cannot join the open transaction`);
  const pool: Queryable = await em.getConnection().getNativeClient();
  let byStatement = batchers.get(pool);
  if (!byStatement) batchers.set(pool, (byStatement = new Map<string, InsertBatcher>()));
  let batcher = byStatement.get(insert.single.name);
  if (!batcher) byStatement.set(insert.single.name, (batcher = new InsertBatcher(pool, insert)));
  return batcher.add(values);
}
