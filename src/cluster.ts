import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { openDatabase } from './kernel/db/database';
import { initOrm } from './database';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from './config';
import { startMetricsListener, type MetricsListener } from './kernel/metrics/metrics-listener';
import { createLogger, type Logger } from './kernel/logging/logger';
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
  const logger = createLogger(config.logLevel, config.logFormat === 'pretty' ? 'pretty' : undefined).child({
    role: 'primary',
  });
  // Before anything starts (see main.ts): a signal during start-up waits for it, then stops cleanly.
  let signalled = false;
  const started: { supervisor?: Supervisor } = {};
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      logger.info({ signal, starting: started.supervisor === undefined }, 'stopping the cluster');
      void started.supervisor?.stopAll(0);
    });
  }
  const database = await openDatabase(config, (message) => logger.info(message));
  let metricsListener: MetricsListener | undefined;
  const release = async () => {
    await metricsListener?.close();
    await database.release();
  };
  try {
    await prepareOnce(database.url, config);
    metricsListener = await serveAggregateMetrics(config, logger);
  } catch (error) {
    // A refused start (demo data in production, a busy metrics port) stops the embedded PostgreSQL it started.
    await release().catch(() => undefined);
    throw error;
  }
  cluster.setupPrimary({ exec: path.join(__dirname, 'main.js') });
  const supervisor = (started.supervisor = new Supervisor(
    config,
    logger,
    { DATABASE_URL: database.url },
    metricsListener?.port,
    release,
  ));
  if (signalled) return supervisor.stopAll(0);
  supervisor.start();
}

/** Migrations and the seed run here once, not in every worker. */
async function prepareOnce(databaseUrl: string, config: Config): Promise<void> {
  const orm = await initOrm(databaseUrl, 2);
  try {
    await prepare(orm, config);
  } finally {
    await orm.close();
  }
}

/** One scrape of METRICS_PORT reads every worker's counters, added up (prom-client asks each over IPC). */
async function serveAggregateMetrics(config: Config, logger: Logger): Promise<MetricsListener | undefined> {
  if (config.metrics.port === undefined) return undefined;
  const aggregator = new AggregatorRegistry();
  return startMetricsListener(
    config.metrics,
    config.metrics.port,
    { contentType: aggregator.contentType, read: () => aggregator.clusterMetrics() },
    logger,
  );
}

/** Forks the workers, restarts one that dies, and stops them all when asked (a signal to the primary). */
class Supervisor {
  private readonly listening = new Set<number>();
  private readonly restarts: number[] = [];
  private reported = false;
  private stopping = false;

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly workerEnv: Record<string, string>,
    private readonly metricsPort: number | undefined,
    private readonly release: () => Promise<void>,
  ) {}

  start(): void {
    cluster.on('exit', (worker, code, signal) => this.exited(worker, code, signal));
    for (let i = 0; i < this.config.clusterWorkers; i += 1) this.fork();
  }

  private fork(): Worker {
    const worker = cluster.fork(this.workerEnv);
    worker.on('message', (message: { port?: number }) => {
      if (typeof message?.port === 'number') this.workerListening(worker, message.port);
    });
    return worker;
  }

  private workerListening(worker: Worker, port: number): void {
    const workers = this.config.clusterWorkers;
    this.listening.add(worker.id);
    this.logger.info({ workerPid: worker.process.pid, port }, 'worker listening');
    if (this.reported || this.listening.size !== workers) return;
    this.reported = true;
    this.logger.info({ workers, port }, 'cluster listening');
    process.send?.({ port, workers, metricsPort: this.metricsPort });
  }

  private exited(worker: Worker, code: number, signal: string): void {
    this.listening.delete(worker.id);
    if (this.stopping) return;
    this.logger.error({ workerPid: worker.process.pid, code, signal }, 'worker died');
    // A worker that dies at once on every start (bad database, bad port) must not spin forever.
    const now = Date.now();
    this.restarts.push(now);
    while (this.restarts[0] !== undefined && now - this.restarts[0] > 60_000) this.restarts.shift();
    if (this.restarts.length > this.config.clusterWorkers * 3) {
      this.logger.fatal('workers keep dying; stopping the cluster');
      void this.stopAll(1);
      return;
    }
    this.fork();
  }

  /** Stops every worker gracefully (a worker still starting finishes its start first), then the rest; exits. */
  async stopAll(exitCode: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
    await Promise.all(workers.map((worker) => stopWorker(worker)));
    await this.release();
    this.logger.info('cluster stopped');
    process.exit(exitCode);
  }
}

function stopWorker(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    if (worker.isDead()) return resolve();
    worker.once('exit', () => resolve());
    worker.process.kill('SIGTERM');
  });
}

primary().catch(exitOnStartupFailure);
