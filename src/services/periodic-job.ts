import type { Logger } from '../logger';

export interface PeriodicJob<Result> {
  /** Runs the job now (also what the timer does); overlapping calls share the run in flight. */
  runOnce(): Promise<Result>;
  /** Stops the timer and waits for a run in flight, so shutdown never cuts a run in half. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalSeconds` (0: never) in this process, logging failures under `name`.
 * The first run comes soon after start, so a server restarted more often than the interval still runs it.
 */
export function startPeriodicJob<Result>(name: string, run: () => Promise<Result>, intervalSeconds: number, logger: Logger): PeriodicJob<Result> {
  let running: Promise<Result> | undefined;

  const runOnce = () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };

  const tick = () => {
    runOnce().catch((error: unknown) => logger.error({ err: error }, `${name} failed`));
  };
  const enabled = intervalSeconds > 0;
  const timer = enabled ? setInterval(tick, intervalSeconds * 1000) : undefined;
  const firstRun = enabled ? setTimeout(tick, Math.min(intervalSeconds, 60) * 1000) : undefined;
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
