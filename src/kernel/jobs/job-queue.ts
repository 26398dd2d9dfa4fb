import { PgBoss } from 'pg-boss';
import type { Logger } from '../logging/logger';

/**
 * The PostgreSQL-backed job queue (pg-boss, in its own `pgboss` schema) every server process
 * shares: webhook deliveries and the periodic jobs. A job is fetched by one process only
 * (`FOR UPDATE SKIP LOCKED`), so what is queued once runs once per cluster.
 */
export interface JobQueue {
  boss: PgBoss;
  /**
   * Runs `run` about every `intervalSeconds` once per cluster: every process offers a run each
   * interval, pg-boss keeps one job per interval-long slot (throttling on a unique key), and one
   * worker takes it. 0 never runs it.
   */
  every(name: string, intervalSeconds: number, run: () => Promise<unknown>): Promise<void>;
  stop(): Promise<void>;
}

/** The queue's own schema; its jobs are in `${JOB_SCHEMA}.job`. */
export const JOB_SCHEMA = 'pgboss';

export async function startJobQueue(
  databaseUrl: string,
  logger: Logger,
  options: { superviseIntervalSeconds?: number } = {},
): Promise<JobQueue> {
  const log = logger.child({ component: 'job-queue' });
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: JOB_SCHEMA,
    max: 4,
    application_name: 'pbs-job-queue',
    // Cron schedules are not used (our intervals can be shorter than cron's minute); see `every`.
    schedule: false,
    // How soon a job whose process died (kill -9) mid-run is expired and retried: pg-boss expires
    // jobs in its monitor pass, which runs at the longer of these two intervals (default 60 s).
    superviseIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    monitorIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    // A queue created with `notify` wakes its workers by NOTIFY when a job is queued, so they need
    // not poll often (one connection of its own listens; without it, workers poll as before).
    useListenNotify: true,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();

  const timers: NodeJS.Timeout[] = [];
  const offer = (name: string, seconds: number) => {
    boss
      .sendThrottled(name, null, null, seconds)
      .catch((error: unknown) => log.error({ err: error, job: name }, 'could not queue a periodic job'));
  };
  return {
    boss,
    async every(name, intervalSeconds, run) {
      if (intervalSeconds <= 0) return;
      await boss.createQueue(name, { retryLimit: 0, expireInSeconds: Math.max(300, intervalSeconds * 2) });
      await boss.work(name, { pollingIntervalSeconds: Math.min(2, Math.max(0.5, intervalSeconds / 2)) }, async () => {
        try {
          await run();
        } catch (error) {
          log.error({ err: error, job: name }, `${name} failed`);
        }
      });
      // The first offer comes soon after start, so a server restarted more often than the interval still runs it.
      const first = setTimeout(() => offer(name, intervalSeconds), Math.min(intervalSeconds, 60) * 1000);
      const repeat = setInterval(() => offer(name, intervalSeconds), intervalSeconds * 1000);
      first.unref();
      repeat.unref();
      timers.push(first, repeat);
    },
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      // Graceful: jobs in hand finish (a delivery's request included) before the pool closes.
      await boss.stop({ graceful: true, timeout: 30_000 });
    },
  };
}

/** The queue with `every` scheduling nothing: its jobs run only when called (StartOptions.backgroundJobs). */
export function withoutSchedules(queue: JobQueue): JobQueue {
  return { ...queue, every: async () => undefined };
}
