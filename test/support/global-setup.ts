import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureLocalCluster } from '../../src/kernel/db/local-cluster';
import { initOrm } from '../../src/database';
import { migrate } from '../../src/kernel/db/orm';

/**
 * One PostgreSQL for the whole run: a fresh database on DATABASE_URL's server when it is set
 * (as in CI), otherwise a throwaway embedded cluster in a temporary directory, tuned for speed.
 * Each test file starts its own server on it. It is migrated here, once: the first files of the
 * workers start their servers at the same moment, and two migrations of one fresh database race
 * (a CREATE of the same table in two transactions: "duplicate key ... pg_type_typname_nsp_index").
 */
export default async function globalSetup(): Promise<void> {
  const databaseName = `pbs_test_${randomBytes(4).toString('hex')}`;
  // Where the suite tallies the error answers it sees (test/support/error-codes.ts), for the summary.
  process.env.ERROR_CODE_TALLY = path.join(os.tmpdir(), `${databaseName}-error-codes.log`);
  if (process.env.DATABASE_URL) {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`CREATE DATABASE ${databaseName}`);
    await client.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${databaseName}`;
    process.env.TEST_DATABASE_URL = url.toString();
    await migrated(url.toString());
    (globalThis as Record<string, unknown>).__dropTestDatabase = async () => {
      const admin = new Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    };
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-test-'));
  fs.chmodSync(dataDir, 0o755);
  const cluster = await ensureLocalCluster({
    dataDir,
    database: databaseName,
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  });
  process.env.TEST_DATABASE_URL = cluster.url;
  await migrated(cluster.url);
  (globalThis as Record<string, unknown>).__dropTestDatabase = async () => {
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

async function migrated(url: string): Promise<void> {
  const quiet = () => undefined;
  const orm = await initOrm(url, 1, { info: quiet, warn: quiet, error: (line) => process.stderr.write(`${line}\n`) });
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
}
