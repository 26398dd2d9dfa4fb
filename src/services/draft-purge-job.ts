import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import type { DocumentStorage } from '../storage/document-storage';
import { purgeExpiredDrafts } from './documents';
import { startPeriodicJob, type PeriodicJob } from './periodic-job';

export type DraftPurgeJob = PeriodicJob<{ purged: number }>;

export interface DraftPurgeSettings {
  ttlHours: number;
  intervalSeconds: number;
}

/** The periodic purge of expired drafts the server runs; an interval of 0 never fires. */
export function startDraftPurgeJob(
  newEm: () => EntityManager,
  storage: DocumentStorage,
  logger: Logger,
  settings: DraftPurgeSettings,
): DraftPurgeJob {
  const purge = async () => {
    const result = await purgeExpiredDrafts(newEm(), storage, { ttlHours: settings.ttlHours });
    if (result.purged > 0) logger.info({ purged: result.purged }, 'purged expired draft documents');
    return result;
  };
  return startPeriodicJob('draft purge', purge, settings.intervalSeconds, logger);
}
