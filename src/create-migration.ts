/**
 * Developer tool: `npm run migration:create -- <name>` diffs the entities against a throwaway
 * database migrated to the latest committed migration and writes the difference as a new
 * migration class into src/kernel/db/migrations/ (append it to migrations/index.ts afterwards).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { initOrm } from './database';
import { migrate } from './kernel/db/orm';
import { ensureLocalCluster } from './kernel/db/local-cluster';

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error('usage: migration:create <PascalCaseName>');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-'));
  fs.chmodSync(dataDir, 0o755);
  const cluster = await ensureLocalCluster({ dataDir, database: 'migration', settings: { fsync: 'off' } });
  const orm = await initOrm(cluster.url);
  try {
    await migrate(orm);
    const target = path.resolve('src/kernel/db/migrations');
    const result = await orm.migrator.create(target, false, false, name);
    if (!result.fileName) console.log('no schema difference');
    else console.log(`wrote ${path.join(target, result.fileName)}\n${result.diff.up.join('\n')}`);
  } finally {
    await orm.close();
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
