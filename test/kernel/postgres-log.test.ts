import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { initOrm } from '../../src/database';
import { ensureLocalCluster, type LocalCluster } from '../../src/kernel/db/local-cluster';
import type { Orm } from '../../src/kernel/db/orm';

/**
 * Issue 30 item 7: the ORM writes values into the SQL text (no bind parameters), so PostgreSQL's
 * own log must not write out a failing statement, nor the row or JSON its error quotes. This runs
 * its own embedded cluster (the one `npm start` uses without DATABASE_URL), whatever the suite's
 * database is, and reads that cluster's log file.
 */
const PASSPORT = `PA${Date.now().toString(36).toUpperCase()}QX`;
const NOTE = `asthma-note-${process.pid}`;

let dataDir: string;
let cluster: LocalCluster | undefined;
let orm: Orm | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-pglog-'));
  fs.chmodSync(dataDir, 0o755);
  cluster = await ensureLocalCluster({ dataDir, database: 'pglog', settings: { fsync: 'off' } });
  orm = await initOrm(cluster.url, 2);
}, 120_000);
afterAll(async () => {
  await orm?.close();
  await cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const serverLog = () => fs.readFileSync(path.join(dataDir, 'postgres.log'), 'utf8');

describe("PostgreSQL's own log on the embedded cluster", () => {
  it('when statements carrying a passport number and a medical note fail, then the errors are logged but neither value is', async () => {
    if (!orm) throw new Error('no ORM');
    const connection = orm.em.getConnection();
    await connection.execute(
      'create table log_probe (passport text unique, note jsonb, check (length(passport) < 20))',
    );
    await connection.execute('insert into log_probe (passport) values (?)', [PASSPORT]);
    // The ORM sends what it built: values inline in the SQL text.
    const unique = connection.execute('insert into log_probe (passport, note) values (?, ?)', [
      PASSPORT,
      JSON.stringify({ note: NOTE }),
    ]);
    await expect(unique).rejects.toThrow(/duplicate key/);
    const check = connection.execute('insert into log_probe (passport, note) values (?, ?)', [
      `${PASSPORT}${'X'.repeat(20)}`,
      JSON.stringify({ note: NOTE }),
    ]);
    await expect(check).rejects.toThrow(/check constraint/);
    const nul = connection.execute('insert into log_probe (passport, note) values (?, ?::jsonb)', [
      'other',
      `{"note":"${NOTE}\\u0000"}`,
    ]);
    await expect(nul).rejects.toThrow(/Unicode|\\u0000/);

    // The log file is written by the server process: wait until the last error is in it.
    const admin = new Client({ connectionString: cluster?.url });
    await admin.connect();
    await admin.query('select pg_sleep(0.2)').finally(() => admin.end());
    const text = serverLog();
    expect(text).toMatch(/ERROR: {2}duplicate key value violates unique constraint/);
    expect(text).toMatch(/ERROR: {2}new row for relation "log_probe" violates check constraint/);
    expect(text).not.toContain(PASSPORT);
    expect(text).not.toContain(NOTE);
    expect(text).not.toContain('STATEMENT:');
  });

  it('when the cluster was started by an older version and is reused, then the settings are applied to it as well', async () => {
    const reused = await ensureLocalCluster({ dataDir, database: 'pglog' });
    expect(reused.startedHere).toBe(false);
    const client = new Client({ connectionString: reused.url });
    await client.connect();
    try {
      const shown = await client.query<{ setting: string }>(
        "select setting from pg_settings where name in ('log_min_error_statement', 'log_error_verbosity') order by name",
      );
      expect(shown.rows.map((row) => row.setting)).toEqual(['terse', 'panic']);
      const auto = await client.query<{ name: string }>(
        "select name from pg_file_settings where sourcefile like '%postgresql.auto.conf' and name = 'log_min_error_statement'",
      );
      expect(auto.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });
});
