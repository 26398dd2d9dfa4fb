import { Client } from 'pg';
import type { Logger } from '../../kernel/logging/logger';
import { CATALOGUE_CHANNEL } from './catalogue-import';

export interface CatalogueListener {
  close(): Promise<void>;
}

/**
 * LISTENs for the NOTIFY that `catalogue import` sends in its transaction, so every running
 * server process reloads its in-memory catalogue at once. If the connection drops, the
 * catalogue's 30-second age check is the fallback; nothing here retries.
 */
export async function listenForCatalogueChanges(databaseUrl: string, onChange: () => Promise<void>, logger: Logger): Promise<CatalogueListener> {
  const client = new Client({ connectionString: databaseUrl });
  client.on('error', (error) => logger.warn({ err: error }, 'catalogue change listener lost its connection'));
  client.on('notification', () => {
    onChange().then(
      () => logger.info('catalogue reloaded after an import'),
      (error: unknown) => logger.error({ err: error }, 'catalogue reload failed'),
    );
  });
  await client.connect();
  await client.query(`listen ${CATALOGUE_CHANNEL}`);
  return { close: () => client.end().catch(() => undefined) };
}
