import path from 'node:path';
import { ensureLocalCluster } from './local-cluster';

export const EMBEDDED_DATABASE_NAME = 'partner_booking';

export interface DatabaseHandle {
  url: string;
  /** Stops the embedded cluster if this process started it; a no-op for DATABASE_URL. */
  release(): Promise<void>;
}

/**
 * DATABASE_URL when given; otherwise the embedded PostgreSQL under DATA_DIR, which the server
 * and the operator CLI share (whichever starts first starts it, the other reuses it).
 */
export async function openDatabase(
  config: { databaseUrl?: string; dataDir: string },
  log: (message: string) => void = () => undefined,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, release: async () => undefined };
  const cluster = await ensureLocalCluster({
    dataDir: path.join(config.dataDir),
    database: EMBEDDED_DATABASE_NAME,
    binDir: process.env.PG_BIN_DIR,
    log,
  });
  return { url: cluster.url, release: () => (cluster.startedHere ? cluster.stop() : Promise.resolve()) };
}
