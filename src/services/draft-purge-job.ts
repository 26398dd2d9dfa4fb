import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import type { DocumentStorage } from '../storage/document-storage';
import { purgeExpiredDrafts } from './documents';

export interface DraftPurgeJob {
  /** Runs one purge now (also what the timer does); overlapping calls share the run in flight. */
  runOnce(): Promise<{ purged: number }>;
  /** Stops the timer and waits for a run in flight, so shutdown never cuts a purge in half. */
  stop(): Promise<void>;
}

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
  let running: Promise<{ purged: number }> | undefined;

  const runOnce = () => {
    running ??= purgeExpiredDrafts(newEm(), storage, { ttlHours: settings.ttlHours })
      .then((result) => {
        if (result.purged > 0) logger.info({ purged: result.purged }, 'purged expired draft documents');
        return result;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const tick = () => {
    runOnce().catch((error: unknown) => logger.error({ err: error }, 'draft purge failed'));
  };
  const enabled = settings.intervalSeconds > 0;
  const timer = enabled ? setInterval(tick, settings.intervalSeconds * 1000) : undefined;
  // The first run comes soon after start, so a server restarted more often than the interval still purges.
  const firstRun = enabled ? setTimeout(tick, Math.min(settings.intervalSeconds, 60) * 1000) : undefined;
  // Timers alone must not keep the process alive.
  timer?.unref();
  firstRun?.unref();

  return {
    runOnce,
    async stop() {
      if (timer) clearInterval(timer);
      if (firstRun) clearTimeout(firstRun);
      await running?.catch(() => undefined);
    },
  };
}
