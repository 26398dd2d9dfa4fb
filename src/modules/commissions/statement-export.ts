import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CsvExports, CsvExportStream } from '../../kernel/db/csv-exports';
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
 * or until it stops): the connection is held until then, so only the operator's CLI, which has its
 * database to itself, reads this way; a partner's CSV takes the export path and its PDF
 * `readStatement` (decision record 0094).
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

/** A statement read whole: its totals and every line, in one snapshot. */
export interface StatementRead {
  totals: PeriodTotals;
  lines: StatementLine[];
}

/**
 * Every line of a company's period and their totals, in one read-only snapshot on a request
 * connection that is given back before this returns: the PDF renders from these rows, so a
 * long render (63,000 lines take seconds) or a client that reads it slowly holds no connection
 * (decision record 0094).
 */
export async function readStatement(
  em: EntityManager,
  companyId: string,
  period: CommissionPeriod,
  now = new Date(),
): Promise<StatementRead> {
  const { totals, batches } = await openStatement(em, companyId, period, now);
  const lines: StatementLine[] = [];
  for await (const batch of batches) lines.push(...batch);
  return { totals, lines };
}

/** The partner's CSV of a statement: the kernel's export path reads it (decision record 0094). */
export function exportStatementCsv(
  csvExports: CsvExports,
  companyId: string,
  period: CommissionPeriod,
): Promise<CsvExportStream> {
  return csvExports.open<StatementLineRow>(companyId, {
    header: STATEMENT_CSV_HEADER,
    sql: { text: STATEMENT_LINES_SQL, values: [companyId, period] },
    line: (row) => statementCsvRow(statementLine(row)),
  });
}

/** The operator's CSV of a statement (`ops commission statements --csv`), read as it is written to its file. */
export function statementCsv(em: EntityManager, companyId: string, period: CommissionPeriod): Readable {
  async function* rows(): AsyncGenerator<string> {
    yield STATEMENT_CSV_HEADER;
    // Opened on the first read: a stream never read holds no connection.
    const { batches } = await openStatement(em, companyId, period);
    for await (const batch of batches) yield batch.map(statementCsvRow).join('');
  }
  return Readable.from(rows(), { objectMode: false });
}
