import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../kernel/logging/logger';
import type { DocumentStorage } from './storage/document-storage';
import { purgeExpiredDrafts } from './documents';
import type { JobQueue } from '../../kernel/jobs/job-queue';
import { startPeriodicJob, type PeriodicJob } from '../../kernel/jobs/periodic-job';

export type DraftPurgeJob = PeriodicJob<{ purged: number }>;

export interface DraftPurgeSettings {
  ttlHours: number;
  intervalSeconds: number;
}

/** The periodic purge of expired drafts, once per cluster; an interval of 0 never fires. */
export function startDraftPurgeJob(
  queue: JobQueue,
  newEm: () => EntityManager,
  storage: DocumentStorage,
  logger: Logger,
  settings: DraftPurgeSettings,
): Promise<DraftPurgeJob> {
  const purge = async () => {
    const result = await purgeExpiredDrafts(newEm(), storage, { ttlHours: settings.ttlHours });
    if (result.purged > 0) logger.info({ purged: result.purged }, 'purged expired draft documents');
    return result;
  };
  return startPeriodicJob(queue, 'draft-purge', purge, settings.intervalSeconds, logger);
}
