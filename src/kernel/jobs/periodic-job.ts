import type { Logger } from '../logging/logger';
import type { JobQueue } from './job-queue';

export interface PeriodicJob<Result> {
  /** Runs the job now in this process (tests, operators); overlapping calls share the run in flight. */
  runOnce(): Promise<Result>;
  /** Waits for a run in flight, so shutdown never cuts a run in half (the queue stops taking new ones). */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalSeconds` (0: never) once per cluster, through the job queue (see
 * JobQueue.every), logging failures under `name`. The queue's worker and runOnce share one run
 * in flight per process.
 */
export async function startPeriodicJob<Result>(
  queue: JobQueue,
  name: string,
  run: () => Promise<Result>,
  intervalSeconds: number,
  logger: Logger,
): Promise<PeriodicJob<Result>> {
  let running: Promise<Result> | undefined;

  const runOnce = () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
  await queue.every(name, intervalSeconds, async () => {
    try {
      await runOnce();
    } catch (error) {
      logger.error({ err: error }, `${name} failed`);
    }
  });

  return {
    runOnce,
    async stop() {
      await running?.catch(() => undefined);
    },
  };
}
