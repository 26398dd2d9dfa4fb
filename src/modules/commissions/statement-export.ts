import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CommissionPeriod } from './rules/commission-period';
import { STATEMENT_CSV_HEADER, statementCsvRow } from './rules/statement-csv';
import { STATEMENT_LINES_SQL, statementLine, type StatementLine, type StatementLineRow } from './statement-rows';
import { noLines, PERIOD_TOTALS_SQL, totalsOf, type PeriodTotals, type TotalsRow } from './statement-totals';

const BATCH = 2_000;

export interface StatementSnapshot {
  /** The totals of the lines below: read in their snapshot, so a PDF's totals and "Page n of N" match its lines in a month still OPEN. */
  totals: PeriodTotals;
  /** Every line, a batch at a time; the connection is returned when they are all read, or closed when the reader stops early. */
  batches: AsyncGenerator<StatementLine[]>;
}

/**
 * A company's period read through a server-side cursor in one read-only snapshot, a batch at a
 * time: memory stays flat however long the month is. The caller must read `batches` (to its end
 * or until it stops): the connection is held until then.
 */
export async function openStatement(
  em: EntityManager,
  companyId: string,
  period: CommissionPeriod,
  now = new Date(),
): Promise<StatementSnapshot> {
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  let totals: PeriodTotals;
  try {
    await client.query('begin isolation level repeatable read read only');
    const {
      rows: [row],
    } = await client.query<TotalsRow>(PERIOD_TOTALS_SQL, [companyId, period]);
    totals = totalsOf(row ?? noLines(period), now);
    await client.query(`declare statement_lines no scroll cursor for ${STATEMENT_LINES_SQL}`, [companyId, period]);
  } catch (error) {
    client.release(true);
    throw error;
  }
  async function* batches(): AsyncGenerator<StatementLine[]> {
    let finished = false;
    try {
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
  return { totals, batches: batches() };
}

/** The CSV of a statement as a stream: the header, then every line as it is read. */
export function statementCsv(em: EntityManager, companyId: string, period: CommissionPeriod): Readable {
  async function* rows(): AsyncGenerator<string> {
    yield STATEMENT_CSV_HEADER;
    // Opened on the first read: a stream never read holds no connection.
    const { batches } = await openStatement(em, companyId, period);
    for await (const batch of batches) yield batch.map(statementCsvRow).join('');
  }
  return Readable.from(rows(), { objectMode: false });
}
