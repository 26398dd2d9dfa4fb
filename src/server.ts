import cluster from 'node:cluster';
import http, { type Server, type ServerResponse } from 'node:http';
import { listeningPort } from './kernel/narrow';
import { API_PREFIX, createApp, operationPolicies } from './app';
import { outcomeMetricsOf } from './kernel/http/operation-policy';
import { registerAssistanceMetrics } from './modules/assistance';
import { registerClaimMetrics } from './modules/claims';
import { loadCertificateFonts } from './modules/certificates';
import type { Config } from './config';
import { listenForCatalogueChanges, type CatalogueListener, Catalogue, readCatalogue } from './modules/catalogue';
import {
  listenForTokenCheckChanges,
  type TokenCheckListener,
  startTokenPurgeJob,
  type TokenPurgeJob,
  TokenCheckCache,
} from './modules/auth';
import { openDatabase, type DatabaseHandle } from './kernel/db/database';
import { initOrm } from './database';
import { migrate, type Orm } from './kernel/db/orm';
import { modeOfSettings, recordMode, refuseOtherMode } from './kernel/db/database-mode';
import { seed } from './seed';
import { refuseActiveDemoData } from './demo-data';
import {
  backfillAttemptProviders,
  createGateways,
  documentAllowingHttpReturnUrl,
  type Gateways,
  sandboxCheckoutRouter,
  esewaCheckoutRouter,
  startPaymentReconcileJob,
  watchedAttemptCounts,
  type PaymentReconcileJob,
  cancellationPayments,
} from './modules/payments';
import { AggregatorRegistry } from 'prom-client';
import { createMetrics, registerReadGauge, type Metrics, type PoolUsage } from './kernel/metrics/metrics';
import { startMetricsListener, type MetricsListener } from './kernel/metrics/metrics-listener';
import { answerProtocolErrorsInShape } from './kernel/http/protocol-errors';
import { loadSpecDocument } from './kernel/http/spec-document';
import { capConnectionsPerAddress } from './kernel/http/slow-senders';
import { createLogger, type Logger } from './kernel/logging/logger';
import { StartupRefusal, startupFailureLine } from './kernel/startup-refusal';
import { purgeExpiredCreateKeys } from './kernel/http/idempotent-create';
import { applyPromoAtCreation, releasePromoSlots } from './modules/promos';
import { startDraftPurgeJob, type DraftPurgeJob, documentStorageFor, PdfCheckPool } from './modules/documents';
import { refundWrites, statusLookupCache, type PaymentDeps } from './modules/payments';
import { startJobQueue, withoutSchedules, type JobQueue } from './kernel/jobs/job-queue';
import { StreamingConnections } from './kernel/db/streaming-connections';
import { CsvExports } from './kernel/db/csv-exports';
import { RefundKick, startRefundJob, type RefundJob } from './modules/refunds';
import { RateLimiter } from './kernel/rate-limits/rate-limiter';
import { startCommissionCloseJob, type CommissionCloseJob } from './modules/commissions';
import { startWebhookDispatch, type WebhookDispatch } from './modules/webhooks';
import type { DocumentStorage } from './modules/documents';
import { TestClocks } from './kernel/test-clock';
import { outsideRequestDay } from './kernel/business-today';

export interface RunningServer {
  url: string;
  port: number;
  /** The METRICS_PORT listener's port, when this process has one. */
  metricsPort?: number;
  orm: Orm;
  logger: Logger;
  catalogue: Catalogue;
  gateways: Gateways;
  payments: PaymentDeps;
  storage: DocumentStorage;
  pdfChecks: PdfCheckPool;
  draftPurge: DraftPurgeJob;
  tokenPurge: TokenPurgeJob;
  reconcile: PaymentReconcileJob;
  /** The refund executor: `refunds.runOnce()` makes the due refunds now. */
  refunds: RefundJob;
  queue: JobQueue;
  webhooks: WebhookDispatch;
  /** This process's cache of bearer checks (used only while its listener holds LISTEN). */
  tokenChecks: TokenCheckCache;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** false when another process (the cluster primary) has already migrated and seeded the database. */
  prepareDatabase?: boolean;
  /**
   * false: nothing runs unasked (no periodic job, no webhook relay or delivery worker, no refund
   * pass after a write), while each job's `runOnce` and the relay's `relayOnce` still run when
   * called. For test servers sharing one database: a job acts on every row, another file's too.
   */
  backgroundJobs?: boolean;
}

/** What has started so far, so a failed start takes down exactly that. */
interface Started {
  orm?: Orm;
  server?: Server;
  queue?: JobQueue;
}

/** Database, migrations, seed, app, listen. Tests call this with port 0; main.ts with the configured port. */
export async function startServer(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  { prepareDatabase = true, backgroundJobs = true }: StartOptions = {},
): Promise<RunningServer> {
  const database = await openDatabase(config, (message) => logger.info(message)).catch((error: unknown) => {
    throw new StartupRefusal(startupFailureLine(error, config));
  });
  const started: Started = {};
  try {
    return await serve(config, logger, { prepareDatabase, backgroundJobs }, database, started);
  } catch (error) {
    // Whatever started goes down again: the pool, the listener, the queue, an embedded PostgreSQL started here.
    started.server?.close();
    await started.queue?.stop().catch(() => undefined);
    await started.orm?.close().catch(() => undefined);
    await database.release().catch(() => undefined);
    throw error instanceof StartupRefusal ? error : new StartupRefusal(startupFailureLine(error, config));
  }
}

/** The steps of a start, in order; each records in `started` what a failed start must stop. */
async function serve(
  config: Config,
  logger: Logger,
  { prepareDatabase, backgroundJobs }: Required<StartOptions>,
  database: DatabaseHandle,
  started: Started,
): Promise<RunningServer> {
  const orm = (started.orm = await openOrm(database, config, logger));
  if (prepareDatabase) await prepare(orm, config);
  const catalogue = new Catalogue(() => readCatalogue(orm.em.fork()));
  const catalogueListener = await listenForCatalogueChanges(
    database.url,
    (version) => (version === undefined ? catalogue.reload() : catalogue.reloadTo(version)),
    logger,
  );
  await catalogue.reload();
  // Each process (each cluster worker) keeps its own cache of bearer checks and its own listener.
  const tokenChecks = new TokenCheckCache();
  const tokenCheckListener = listenForTokenCheckChanges(database.url, tokenChecks, logger);
  // Listen first: with PORT=0 the links the service hands out (checkout pages, callback) need the port.
  const server = (started.server = createHttpServer(config));
  const port = await listen(server, config);
  const publicBaseUrl = config.publicBaseUrl || `http://127.0.0.1:${port}`;
  const parts = await buildParts(config, logger, orm, publicBaseUrl, database.url, backgroundJobs);
  server.on('request', await buildApp(config, orm, { catalogue, tokenChecks }, parts, publicBaseUrl));
  const metricsListener = await exposeMetrics(config, parts.metrics, logger);
  // Periodic jobs and webhook deliveries share one PostgreSQL-backed queue: each runs once per cluster.
  const queue = (started.queue = await startJobQueue(database.url, logger));
  const jobs = await startJobs(queue, config, logger, orm, parts, backgroundJobs);
  logListening(logger, config, port, publicBaseUrl);
  const stoppable = {
    server,
    metricsListener,
    jobs,
    queue,
    catalogueListener,
    tokenCheckListener,
    orm,
    database,
    pdfChecks: parts.pdfChecks,
    csvExports: parts.csvExports,
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    metricsPort: metricsListener?.port,
    orm,
    logger,
    catalogue,
    gateways: parts.gateways,
    payments: parts.payments,
    storage: parts.storage,
    pdfChecks: parts.pdfChecks,
    queue,
    ...jobs,
    tokenChecks,
    stop: () => stopServer(stoppable, config, logger),
  };
}

/** MikroORM's lines (migrator progress) join the structured log and obey LOG_LEVEL; a failed migration still throws, whatever the level. */
function openOrm(database: DatabaseHandle, config: Config, logger: Logger): Promise<Orm> {
  const ormLog = logger.child({ component: 'mikro-orm' });
  return initOrm(database.url, config.dbPoolMax, {
    info: (line) => ormLog.info(line),
    warn: (line) => ormLog.warn(line),
    error: (line) => ormLog.error(line),
  });
}

function createHttpServer(config: Config): Server {
  const server = http.createServer({
    headersTimeout: config.http.headersTimeoutMs,
    requestTimeout: config.http.requestTimeoutMs,
    // Node checks the two timeouts every 30 s by default: a slow sender would get up to 30 s more.
    connectionsCheckingInterval: 1000,
  });
  answerProtocolErrorsInShape(server);
  capConnectionsPerAddress(server, config.http.maxConnectionsPerAddress);
  return server;
}

/** Resolves with the port listened on (the configured one, or the one the OS chose for 0). */
async function listen(server: Server, config: Config): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.keepAliveTimeout = 65_000;
  return listeningPort(server);
}

/** The adapters the app and the jobs share. */
interface Parts {
  gateways: Gateways;
  metrics: Metrics;
  payments: PaymentDeps;
  /** The refund executor's kick the payment deps carry, bound to the job once it starts (background jobs only). */
  refundKick: RefundKick;
  storage: DocumentStorage;
  pdfChecks: PdfCheckPool;
  csvExports: CsvExports;
}

async function buildParts(
  config: Config,
  logger: Logger,
  orm: Orm,
  publicBaseUrl: string,
  databaseUrl: string,
  backgroundJobs: boolean,
): Promise<Parts> {
  const gateways = createGateways(
    config,
    () => publicBaseUrl,
    () => orm.em.fork(),
    logger,
  );
  const metrics = createMetrics(await poolUsage(orm, config.dbPoolMax), outcomeMetricsOf(operationPolicies));
  const refundKick = new RefundKick();
  const payments: PaymentDeps = {
    payments: config.payments,
    gateways: gateways.registry,
    logger,
    metrics,
    statusLookups: statusLookupCache(config.payments),
    refundWrites,
    // Refunds written are made at once, in this process, after their commit, where it runs the jobs.
    ...(backgroundJobs ? { kickRefunds: refundKick.kick } : {}),
  };
  registerReadGauge(
    metrics,
    'payment_watched_attempts',
    'Payment attempts the payment watch is following, by provider and state (UNDECIDED: no final word yet; PAID: watched for a reversal)',
    ['provider', 'state'],
    async () =>
      (await watchedAttemptCounts(orm.em.fork(), payments)).map(({ provider, state, count }) => ({
        labels: { provider, state },
        value: count,
      })),
  );
  registerAssistanceMetrics(metrics, () => orm.em.fork());
  registerClaimMetrics(metrics, () => orm.em.fork());
  // Its workers start with the first PDF uploaded, and stop with the server.
  const csvExports = new CsvExports(new StreamingConnections(databaseUrl, config.streaming));
  return {
    gateways,
    metrics,
    payments,
    refundKick,
    storage: await documentStorageFor(config),
    pdfChecks: new PdfCheckPool(),
    csvExports,
  };
}

/** What the database tells this process about while it runs: catalogue changes, revoked tokens. */
interface Listened {
  catalogue: Catalogue;
  tokenChecks: TokenCheckCache;
}

function buildApp(
  config: Config,
  orm: Orm,
  { catalogue, tokenChecks }: Listened,
  { gateways, metrics, payments, storage, pdfChecks, csvExports }: Parts,
  publicBaseUrl: string,
) {
  const { logger } = payments;
  const newEm = () => orm.em.fork();
  const merchantName = config.payments.merchantName;
  return createApp({
    orm,
    tokenChecks,
    document: config.payments.allowHttpReturnUrl
      ? documentAllowingHttpReturnUrl(loadSpecDocument())
      : loadSpecDocument(),
    services: {
      config: { ...config, publicBaseUrl },
      catalogue,
      logger,
      payments,
      storage,
      pdfChecks,
      metrics,
      rateLimiter: new RateLimiter(config.rateLimits.windowSeconds),
      certificateFonts: loadCertificateFonts(),
      isDatabaseUp: () => orm.isConnected(),
      metricsExposure: config.metrics,
      testClocks: new TestClocks(),
      promoAtOrderCreation: applyPromoAtCreation,
      cancellationPayments: cancellationPayments(payments),
      promoSlotRelease: releasePromoSlots,
      csvExports,
    },
    pages: [
      ...(gateways.sandbox.size > 0
        ? [
            sandboxCheckoutRouter({
              gateways: gateways.sandbox,
              newEm,
              merchantName,
              baseUrl: () => publicBaseUrl,
              logger,
            }),
          ]
        : []),
      ...(gateways.esewa.size > 0 ? [esewaCheckoutRouter({ gateways: gateways.esewa, newEm, merchantName })] : []),
    ],
  });
}

interface Jobs {
  reconcile: PaymentReconcileJob;
  refunds: RefundJob;
  draftPurge: DraftPurgeJob;
  tokenPurge: TokenPurgeJob;
  commissionClose: CommissionCloseJob;
  webhooks: WebhookDispatch;
}

async function startJobs(
  jobQueue: JobQueue,
  config: Config,
  logger: Logger,
  orm: Orm,
  { payments, refundKick, storage }: Parts,
  backgroundJobs: boolean,
): Promise<Jobs> {
  const newEm = () => orm.em.fork();
  const queue = backgroundJobs ? jobQueue : withoutSchedules(jobQueue);
  const reconcile = await startPaymentReconcileJob(queue, newEm, payments);
  const refunds = await startRefundJob(queue, newEm, payments);
  // The pass is the process's, not the kicking request's, so it never runs on that request's test clock.
  refundKick.bind(() => outsideRequestDay(() => refunds.kick()));
  const draftPurge = await startDraftPurgeJob(queue, newEm, storage, logger, {
    ttlHours: config.documentDraftTtlHours,
    intervalSeconds: config.documentPurgeIntervalSeconds,
  });
  const tokenPurge = await startTokenPurgeJob(queue, newEm, logger, config.documentPurgeIntervalSeconds);
  const commissionClose = await startCommissionCloseJob(queue, newEm, logger, {
    currency: config.currency,
    intervalSeconds: config.commissions.closeIntervalSeconds,
  });
  const webhooks = await startWebhookDispatch(queue, newEm, config.webhooks, logger, { deliver: backgroundJobs });
  await queue.every('idempotent-create-purge', 3600, () => purgeExpiredCreateKeys(newEm()));
  return { reconcile, refunds, draftPurge, tokenPurge, commissionClose, webhooks };
}

/** The addresses a person starting the service wants; the JSON line carries them as fields too. */
function logListening(logger: Logger, config: Config, port: number, publicBaseUrl: string): void {
  // One string: a field named after a gateway reads like instrument data to log scanners.
  const providers = Object.entries(config.payments.providers)
    .map(([gateway, provider]) => `${gateway}=${provider ?? 'none'}`)
    .join(' ');
  logger.info(
    {
      port,
      paymentMode: config.payments.mode,
      providers,
      api: `${publicBaseUrl}${API_PREFIX}`,
      docs: `${publicBaseUrl}/docs`,
      mock: 'npm run mock',
    },
    'listening',
  );
}

interface Stoppable {
  server: Server;
  metricsListener: MetricsListener | undefined;
  jobs: Jobs;
  queue: JobQueue;
  catalogueListener: CatalogueListener;
  tokenCheckListener: TokenCheckListener;
  orm: Orm;
  database: DatabaseHandle;
  pdfChecks: PdfCheckPool;
  csvExports: CsvExports;
}

/** Stop accepting, let in-flight requests finish, then stop the jobs and close the pool and the embedded cluster. */
async function stopServer(running: Stoppable, config: Config, logger: Logger): Promise<void> {
  const { jobs } = running;
  await drain(running.server, config.shutdownTimeoutMs, logger);
  await running.metricsListener?.close();
  // No request is in flight any more: no verdict is awaited.
  await running.pdfChecks.stop();
  await jobs.webhooks.stop();
  await running.queue.stop();
  await jobs.draftPurge.stop();
  await jobs.tokenPurge.stop();
  await jobs.commissionClose.stop();
  await jobs.reconcile.stop();
  await jobs.refunds.stop();
  await running.catalogueListener.close();
  await running.tokenCheckListener.close();
  await running.csvExports.close();
  await running.orm.close();
  logger.info('database pool closed');
  await running.database.release();
}

/**
 * A worker of `npm run start:cluster` answers its primary's scrape requests (the primary serves
 * the aggregate on METRICS_PORT); a process on its own serves METRICS_PORT itself.
 */
async function exposeMetrics(config: Config, metrics: Metrics, logger: Logger): Promise<MetricsListener | undefined> {
  if (cluster.isWorker) {
    // Constructing one is what makes prom-client answer the primary's requests in a worker.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
    return undefined;
  }
  if (config.metrics.port === undefined) return undefined;
  const { registry } = metrics;
  return startMetricsListener(
    config.metrics,
    config.metrics.port,
    { contentType: registry.contentType, read: () => registry.metrics() },
    logger,
  );
}

/**
 * Refuses a database of the other mode before touching it, and records this one's mode in a
 * database that has none only once it would serve (decision record 0093): a production start
 * refused for its demo data leaves the database as the operator found it.
 */
export async function prepare(orm: Orm, config: Config): Promise<void> {
  const mode = modeOfSettings(config.isProduction);
  await refuseOtherMode(orm.em.fork(), mode);
  await migrate(orm);
  await backfillAttemptProviders(orm.em.fork(), config.payments);
  await seed(orm.em.fork(), { refreshCatalogue: !config.isProduction, demoPartners: config.seedDemoData });
  if (config.isProduction) await refuseActiveDemoData(orm.em.fork());
  await recordMode(orm.em.fork(), mode);
}

/**
 * Stops accepting connections and lets in-flight requests finish. Node's close() waits for every
 * keep-alive connection, and closes only those idle at that moment: a connection whose request is
 * still running is closed as soon as it falls idle (checked every 50 ms), and a request that
 * arrives meanwhile on an open connection is answered with `Connection: close`. Whatever still
 * runs after `timeoutMs` is cut.
 */
async function drain(server: Server, timeoutMs: number, logger: Logger): Promise<void> {
  server.on('request', (_req, res: ServerResponse) => res.setHeader('Connection', 'close'));
  await new Promise<void>((resolve) => {
    const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => {
      logger.warn({ timeoutMs }, 'in-flight requests did not finish in time; closing their connections');
      server.closeAllConnections();
    }, timeoutMs);
    server.close(() => {
      clearInterval(idleSweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
  logger.info('http server closed');
}

/** The ORM's connection pool (the `pg` Pool of MikroORM's PostgreSQL driver), read when /metrics is scraped. */
async function poolUsage(orm: Orm, max: number): Promise<PoolUsage> {
  const pool = await orm.em.getConnection().getNativeClient();
  return {
    used: () => pool.totalCount - pool.idleCount,
    free: () => pool.idleCount,
    pending: () => pool.waitingCount,
    max,
  };
}
