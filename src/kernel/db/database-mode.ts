import type { EntityManager } from '@mikro-orm/postgresql';
import { StartupRefusal } from '../startup-refusal';

/**
 * What a database serves (decision record 0093): a sandbox (any NODE_ENV but production: demo
 * partners, sandbox payments, test clocks) or production. Recorded once, by the first server that
 * starts on the database, so that settings of the other kind (an operator's shell without
 * NODE_ENV=production, a sandbox server pointed at the production DATABASE_URL) are refused
 * before they plant demo partners or sandbox rows in it.
 */
export type DatabaseMode = 'sandbox' | 'production';

export const modeOfSettings = (isProduction: boolean): DatabaseMode => (isProduction ? 'production' : 'sandbox');

/** The mode recorded in this database, or undefined before it is recorded (or before the migration that holds it). */
export async function recordedMode(em: EntityManager): Promise<DatabaseMode | undefined> {
  const connection = em.getConnection();
  // A fresh database has no table yet: the commands and the server look before they migrate.
  const [table] = await connection.execute<Array<{ exists: boolean }>>(
    `select to_regclass('database_mode') is not null as exists`,
  );
  if (!table?.exists) return undefined;
  const [row] = await connection.execute<Array<{ mode: DatabaseMode }>>(`select mode from database_mode`);
  return row?.mode;
}

const SETTINGS: Record<DatabaseMode, string> = {
  production: 'production settings (NODE_ENV=production)',
  sandbox: 'sandbox settings (NODE_ENV is not production)',
};

/** The one line a process prints when its settings are of the other mode than its database. */
export function modeMismatchLine(database: DatabaseMode, settings: DatabaseMode): string {
  return (
    `Refusing to act: this database is a ${database} database and this process runs with ${SETTINGS[settings]}; ` +
    `run it with the ${database} deployment's settings, or point DATABASE_URL (or DATA_DIR) at a ${settings} database`
  );
}

/** Refuses (StartupRefusal, one line) when the database records the other mode than the settings'. */
export async function refuseOtherMode(em: EntityManager, settings: DatabaseMode): Promise<void> {
  const database = await recordedMode(em);
  if (database !== undefined && database !== settings) throw new StartupRefusal(modeMismatchLine(database, settings));
}

/**
 * Records the settings' mode in a database that has none yet, then refuses as refuseOtherMode: two
 * servers of different modes starting at once on a fresh database cannot both win.
 */
export async function recordMode(em: EntityManager, settings: DatabaseMode): Promise<void> {
  await em
    .getConnection()
    .execute(`insert into database_mode (mode) values (?) on conflict (one_row) do nothing`, [settings]);
  await refuseOtherMode(em, settings);
}
