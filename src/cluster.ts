import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from './db/database';
import { initOrm } from './db/orm';
import { AggregatorRegistry } from 'prom-client';
import { startMetricsListener } from './http/metrics-listener';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';
import { configOrExit, exitOnStartupFailure } from './main';
import { prepare } from './server';

/**
 * `npm run start:cluster`: CLUSTER_WORKERS stateless server processes sharing one port (node:cluster
 * hands connections out round-robin) and one PostgreSQL, which holds every piece of shared state
 * (tokens, rate-limit counters, orders). The primary migrates and seeds once, then only supervises:
 * it restarts a worker that dies and, on SIGTERM or SIGINT, stops every worker gracefully.
 */
async function primary(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger(config.logLevel, config.logFormat === 'pretty' ? 'pretty' : undefined).child({ role: 'primary' });
  const database = await preparedDatabase(config, logger);
  const metricsListener = await clusterMetricsListener(config, logger);

  cluster.setupPrimary({ exec: path.join(__dirname, 'main.js') });
  const workerEnv = { DATABASE_URL: database.url };
  const listening = new Set<number>();
  let reported = false;
  let stopping = false;
  const restarts: number[] = [];

  const fork = (): Worker => {
    const worker = cluster.fork(workerEnv);
    worker.on('message', (message: { port?: number }) => {
      if (typeof message?.port !== 'number') return;
      listening.add(worker.id);
      logger.info({ workerPid: worker.process.pid, port: message.port }, 'worker listening');
      if (!reported && listening.size === config.clusterWorkers) {
        reported = true;
        logger.info({ workers: config.clusterWorkers, port: message.port }, 'cluster listening');
        process.send?.({ port: message.port, workers: config.clusterWorkers, metricsPort: metricsListener?.port });
      }
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) return;
    logger.error({ workerPid: worker.process.pid, code, signal }, 'worker died');
    // A worker that dies at once on every start (bad database, bad port) must not spin forever.
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && now - restarts[0] > 60_000) restarts.shift();
    if (restarts.length > config.clusterWorkers * 3) {
      logger.fatal('workers keep dying; stopping the cluster');
      void stopAll(1);
      return;
    }
    fork();
  });

  const stopAll = async (exitCode: number) => {
    stopping = true;
    await stopWorkers();
    await metricsListener?.close();
    await database.release();
    logger.info('cluster stopped');
    process.exit(exitCode);
  };
  onStopSignal((signal) => {
    if (stopping) return;
    logger.info({ signal }, 'stopping the cluster');
    void stopAll(0);
  });

  for (let i = 0; i < config.clusterWorkers; i += 1) fork();
}

/** The primary migrates and seeds once, before any worker starts. */
async function preparedDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const database = await openDatabase(config, (message) => logger.info(message));
  const orm = await initOrm(database.url, 2);
  try {
    await prepare(orm, config);
  } finally {
    await orm.close();
  }
  return database;
}

/** One scrape of METRICS_PORT reads every worker's counters, added up (prom-client asks each over IPC). */
async function clusterMetricsListener(config: Config, logger: Logger) {
  if (config.metrics.port === undefined) return undefined;
  const aggregator = new AggregatorRegistry();
  return startMetricsListener(config.metrics, config.metrics.port, { contentType: aggregator.contentType, read: () => aggregator.clusterMetrics() }, logger);
}

/** SIGTERM to every live worker; resolves once all have exited. */
async function stopWorkers(): Promise<void> {
  const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          worker.process.kill('SIGTERM');
        }),
    ),
  );
}

function onStopSignal(stop: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
}

primary().catch(exitOnStartupFailure);
