import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { initOrm, migrate } from '../db/orm';
import { seed } from '../db/seed';

export interface CliOptions {
  json?: boolean;
}

/** Prints a result as JSON (--json) or as readable lines. */
export function output(options: CliOptions, value: unknown, text: string): void {
  console.log(options.json ? JSON.stringify(value, null, 2) : text);
}

/**
 * Runs one operator command against the same database the server uses (DATABASE_URL, or the
 * embedded cluster under DATA_DIR: reused while the server runs, started and stopped otherwise).
 */
export async function withDatabase<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(config);
  const orm = await initOrm(database.url, 2);
  try {
    await migrate(orm);
    await seed(orm.em.fork(), { refreshCatalogue: false, demoPartners: config.seedDemoData });
    return await work(orm.em.fork());
  } finally {
    await orm.close();
    await database.release();
  }
}
