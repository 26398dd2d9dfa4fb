import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../kernel/jobs/job-queue';
import { startPeriodicJob, type PeriodicJob } from '../../kernel/jobs/periodic-job';
import type { Logger } from '../../kernel/logging/logger';
import { announceClosedPeriods, type ClosedPeriods } from './period-closing';

export type CommissionCloseJob = PeriodicJob<ClosedPeriods>;

/** `commission.period_closed` shortly after each Nepal month ends, once per cluster (the job queue's periodic job). */
export function startCommissionCloseJob(
  queue: JobQueue,
  newEm: () => EntityManager,
  logger: Logger,
  settings: { currency: string; intervalSeconds: number },
): Promise<CommissionCloseJob> {
  const close = async () => {
    const result = await announceClosedPeriods(newEm(), settings.currency);
    if (result.announced.length > 0)
      logger.info({ statements: result.announced.length }, 'commission periods closed and announced');
    return result;
  };
  return startPeriodicJob(queue, 'commission-period-close', close, settings.intervalSeconds, logger);
}
