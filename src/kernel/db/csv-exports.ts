import { Readable } from 'node:stream';
import type { StreamingConnections } from './streaming-connections';

/** One statement with numbered parameters ($1, $2, ...), as node-postgres takes it. */
export interface ExportSql {
  text: string;
  values: unknown[];
}

/** What one CSV export reads and how it writes it; the kernel decides where and for how long it reads. */
export interface CsvExportQuery<Row> {
  /** The first line, CRLF-terminated. */
  header: string;
  /** Every row of the export in its order: read through a cursor, in one read-only snapshot. */
  sql: ExportSql;
  /** One row as its CSV line, CRLF-terminated (kernel/csv.ts writes the cells). */
  line: (row: Row) => string;
}

declare const throughTheExportPath: unique symbol;

/**
 * A CSV body that only `CsvExports.open` makes: the contract's `text/csv` answers take nothing else
 * (kernel/http/contract.ts), so an export that reads the request pool, or skips the per-company
 * limit, is a compile error rather than a stalled service (decision record 0094).
 */
export type CsvExportStream = Readable & { readonly [throughTheExportPath]: true };

/** Rows per FETCH: the most the server holds of one export at once. */
const BATCH = 1000;

/**
 * The one path every streamed CSV export takes (decision records 0076 and 0094): a connection of
 * the streaming pool (never the request pool), one of the company's export slots (429 with
 * Retry-After beyond them, across processes), one read-only snapshot, so rows written meanwhile
 * are neither repeated nor skipped, and a cursor read a batch at a time as the client reads. The
 * HTTP layer cuts a body its client stops taking (kernel/http/stream-deadline.ts), which destroys
 * the stream here and closes the connection with its slot.
 */
export class CsvExports {
  constructor(private readonly connections: StreamingConnections) {}

  /**
   * Takes the slot and opens the cursor before it returns: a company over its limit is a 429 and a
   * failing query a 500, not a cut stream.
   */
  async open<Row>(companyId: string, query: CsvExportQuery<Row>): Promise<CsvExportStream> {
    const { client, release } = await this.connections.lease(companyId);
    try {
      await client.query('begin isolation level repeatable read read only');
      await client.query(`declare csv_export no scroll cursor for ${query.sql.text}`, query.sql.values);
    } catch (error) {
      release(true);
      throw error;
    }
    async function* lines(): AsyncGenerator<string> {
      let finished = false;
      try {
        yield query.header;
        for (;;) {
          const { rows } = await client.query<Row & object>(`fetch ${BATCH} from csv_export`);
          if (rows.length === 0) break;
          yield rows.map(query.line).join('');
        }
        await client.query('commit');
        finished = true;
      } finally {
        // A connection left inside the transaction (the client went away midway) is closed, not pooled.
        release(!finished);
      }
    }
    const stream = Readable.from(lines(), { objectMode: false });
    // A stream destroyed before its first read never runs the generator's finally.
    stream.once('close', () => release(true));
    return stream as CsvExportStream;
  }

  close(): Promise<void> {
    return this.connections.close();
  }
}
