import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CommissionPeriod } from './rules/commission-period';
import { STATEMENT_CSV_HEADER, statementCsvRow } from './rules/statement-csv';
import { STATEMENT_LINES_SQL, statementLine, type StatementLine, type StatementLineRow } from './statement-rows';

const BATCH = 2_000;

/**
 * Every line of a company's period, read through a server-side cursor in one read-only snapshot,
 * a batch at a time: memory stays flat however long the month is. The connection is returned
 * when the lines are all read, or closed when the reader goes away midway.
 */
export async function* statementLines(em: EntityManager, companyId: string, period: CommissionPeriod): AsyncGenerator<StatementLine[]> {
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query('begin isolation level repeatable read read only');
    await client.query(`declare statement_lines no scroll cursor for ${STATEMENT_LINES_SQL}`, [companyId, period]);
    for (;;) {
      const { rows } = await client.query<StatementLineRow>(`fetch ${BATCH} from statement_lines`);
      if (rows.length === 0) break;
      yield rows.map(statementLine);
    }
    await client.query('commit');
    finished = true;
  } finally {
    // A connection left inside the transaction (the reader went away midway) is closed, not pooled.
    client.release(!finished);
  }
}

/** The CSV of a statement as a stream: the header, then every line as it is read. */
export function statementCsv(em: EntityManager, companyId: string, period: CommissionPeriod): Readable {
  async function* rows(): AsyncGenerator<string> {
    yield STATEMENT_CSV_HEADER;
    for await (const batch of statementLines(em, companyId, period)) yield batch.map(statementCsvRow).join('');
  }
  return Readable.from(rows(), { objectMode: false });
}
