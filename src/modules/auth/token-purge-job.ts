import type { EntityManager } from '@mikro-orm/postgresql';
import { AccessToken } from './entities/access-token';
import type { Logger } from '../../kernel/logging/logger';
import type { JobQueue } from '../../kernel/jobs/job-queue';
import { startPeriodicJob, type PeriodicJob } from '../../kernel/jobs/periodic-job';

export type TokenPurgeJob = PeriodicJob<{ purged: number }>;

/**
 * An expired access token can never be used again (the bearer check refuses it), so its row is
 * only weight on the table every request looks up. Revoked tokens go too once they would have
 * expired. Deleting is idempotent; the queue runs it once per cluster anyway.
 */
export async function purgeExpiredTokens(em: EntityManager): Promise<{ purged: number }> {
  const purged = await em.nativeDelete(AccessToken, { expiresAt: { $lt: new Date() } });
  return { purged };
}

/** Runs on the draft purge's schedule (DOCUMENT_PURGE_INTERVAL_SECONDS); an interval of 0 never fires. */
export function startTokenPurgeJob(
  queue: JobQueue,
  newEm: () => EntityManager,
  logger: Logger,
  intervalSeconds: number,
): Promise<TokenPurgeJob> {
  const purge = async () => {
    const result = await purgeExpiredTokens(newEm());
    if (result.purged > 0) logger.info({ purged: result.purged }, 'purged expired access tokens');
    return result;
  };
  return startPeriodicJob(queue, 'token-purge', purge, intervalSeconds, logger);
}
