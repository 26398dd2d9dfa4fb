import { Pool, type PoolClient } from 'pg';
import { tooMany } from '../errors';

/**
 * The database connections streamed answers (the order book's CSV export) read through: a small
 * pool of their own, apart from the request pool, so exports whose clients read slowly or not at
 * all can hold these and nothing else. Each company may hold `perCompany` of them at once across
 * every server process (a slot is a session advisory lock on the export's own connection, so it
 * ends with the connection, whatever kills it); beyond that, or when the pool has none free within
 * `waitMs`, the answer is a 429 with Retry-After, before anything is streamed.
 */
export interface StreamingSettings {
  /** Connections in the streaming pool (EXPORT_DB_CONNECTIONS). */
  connections: number;
  /** Streamed answers one company may have open at once (EXPORTS_PER_COMPANY). */
  perCompany: number;
  /** How long a new export waits for a free connection before it is refused. */
  waitMs: number;
}

/** One connection lent to one streamed answer; `release` gives it back (once; later calls do nothing). */
export interface StreamingLease {
  client: PoolClient;
  /** `discard`: close the connection rather than pool it (it may be left inside a transaction). */
  release: (discard: boolean) => void;
}

/** Seconds a refused export is told to wait: about how long a steadily read export takes. */
const RETRY_AFTER_SECONDS = 30;

export class StreamingConnections {
  private readonly pool: Pool;
  private readonly openByCompany = new Map<string, number>();

  constructor(
    url: string,
    private readonly settings: StreamingSettings,
  ) {
    this.pool = new Pool({
      connectionString: url,
      max: settings.connections,
      connectionTimeoutMillis: settings.waitMs,
      application_name: 'streamed-answers',
    });
    // An idle connection the server dropped must not take the process down.
    this.pool.on('error', () => undefined);
  }

  async lease(companyId: string): Promise<StreamingLease> {
    const open = this.openByCompany.get(companyId) ?? 0;
    if (open >= this.settings.perCompany) {
      throw tooMany(
        `At most ${this.settings.perCompany} exports per company may run at once; finish reading one, then try again`,
        RETRY_AFTER_SECONDS,
      );
    }
    this.openByCompany.set(companyId, open + 1);
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      this.giveBack(companyId);
      throw tooMany('Every export slot of the service is busy; try again shortly', RETRY_AFTER_SECONDS);
    }
    const slot = await this.companySlot(client, companyId).catch(() => false);
    if (!slot) {
      client.release(true);
      this.giveBack(companyId);
      throw tooMany(
        `At most ${this.settings.perCompany} exports per company may run at once; finish reading one, then try again`,
        RETRY_AFTER_SECONDS,
      );
    }
    let released = false;
    return {
      client,
      // Always closed, never pooled: the company's slot is a lock of this session, and goes with it.
      release: () => {
        if (released) return;
        released = true;
        client.release(true);
        this.giveBack(companyId);
      },
    };
  }

  /** Takes one of the company's slots, cluster-wide, for as long as this connection lives; false when all are taken. */
  private async companySlot(client: PoolClient, companyId: string): Promise<boolean> {
    for (let slot = 1; slot <= this.settings.perCompany; slot += 1) {
      const { rows } = await client.query<{ taken: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, 0)) as taken',
        [`export-slot:${companyId}:${slot}`],
      );
      if (rows[0]?.taken) return true;
    }
    return false;
  }

  /** Connections lent out now: the metric and the tests read it. */
  inUse(): number {
    return this.pool.totalCount - this.pool.idleCount;
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private giveBack(companyId: string): void {
    const open = (this.openByCompany.get(companyId) ?? 1) - 1;
    if (open <= 0) this.openByCompany.delete(companyId);
    else this.openByCompany.set(companyId, open);
  }
}
