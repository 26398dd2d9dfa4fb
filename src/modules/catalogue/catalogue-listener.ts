import { Client } from 'pg';
import type { Logger } from '../../kernel/logging/logger';
import { CATALOGUE_CHANNEL } from './catalogue-import';

export interface CatalogueListener {
  close(): Promise<void>;
}

/** The version an import's notification announces; undefined for one without (a server of an older release). */
export function announcedVersion(payload: string | undefined): number | undefined {
  return payload && /^\d+$/.test(payload) ? Number(payload) : undefined;
}

/**
 * LISTENs for the NOTIFY that `catalogue import` sends in its transaction (delivered at its
 * commit, with the version it wrote), so every running server process reloads its in-memory
 * catalogue at once. Started before the first load, so an import committed during that load is
 * heard. If the connection drops, the catalogue's 30-second age check is the fallback; nothing
 * here retries.
 */
export async function listenForCatalogueChanges(
  databaseUrl: string,
  onChange: (version: number | undefined) => Promise<void>,
  logger: Logger,
): Promise<CatalogueListener> {
  const client = new Client({ connectionString: databaseUrl });
  client.on('error', (error) => logger.warn({ err: error }, 'catalogue change listener lost its connection'));
  client.on('notification', ({ payload }) => {
    const version = announcedVersion(payload);
    onChange(version).then(
      () => logger.info({ catalogueVersion: version }, 'catalogue reloaded after an import'),
      (error: unknown) => logger.error({ err: error, catalogueVersion: version }, 'catalogue reload failed'),
    );
  });
  await client.connect();
  await client.query(`listen ${CATALOGUE_CHANNEL}`);
  return { close: () => client.end().catch(() => undefined) };
}
