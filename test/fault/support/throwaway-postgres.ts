import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureLocalCluster, findPostgresBinaries, type LocalCluster } from '../../../src/kernel/db/local-cluster';

/** The project's PostgreSQL 18 binaries (the npm package the embedded default uses), as .ci/run does; PG_BIN overrides. */
const PG_BIN = findPostgresBinaries(process.env.PG_BIN);

/**
 * A PostgreSQL cluster of this run's own, which the fault run may stop and start at will (the
 * shared test database must never go down under other files). Restarting keeps the port, so the
 * server processes reconnect to the same URL.
 */
export class ThrowawayPostgres {
  private cluster?: LocalCluster;
  private constructor(private readonly dataDir: string) {}

  static async start(): Promise<ThrowawayPostgres> {
    if (!fs.existsSync(path.join(PG_BIN, 'pg_ctl')))
      throw new Error(`no PostgreSQL binaries in ${PG_BIN} (run npm ci, or set PG_BIN)`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-fault-pg-'));
    fs.chmodSync(dataDir, 0o755);
    const postgres = new ThrowawayPostgres(dataDir);
    await postgres.up();
    return postgres;
  }

  get url(): string {
    if (!this.cluster) throw new Error('PostgreSQL is not running');
    return this.cluster.url;
  }

  /** Starts (or restarts) the cluster on its recorded port and waits until it accepts connections. */
  async up(): Promise<void> {
    this.cluster = await ensureLocalCluster({
      dataDir: this.dataDir,
      database: 'pbs_fault',
      binDir: PG_BIN,
      // Durability settings do not matter for a fast shutdown (it checkpoints); they do for speed.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    });
  }

  /** `pg_ctl stop -m fast`: every open session is terminated, committed work is kept. */
  async down(): Promise<void> {
    await this.cluster?.stop();
  }

  async destroy(): Promise<void> {
    await this.down().catch(() => undefined);
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
