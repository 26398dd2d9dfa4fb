import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { initOrm, migrate, type Orm } from './db/orm';
import { seed } from './db/seed';
import { loadSpecDocument } from './http/spec-document';
import { createLogger, type Logger } from './logger';
import { Catalogue } from './services/catalogue';
import { createGateways, type Gateways } from './gateways';
import { sandboxCheckoutRouter } from './gateways/sandbox/checkout-routes';
import type { PaymentDeps } from './services/payment-deps';
import { PaymentReconcileJob } from './services/payment-reconcile-job';
import { startDraftPurgeJob, type DraftPurgeJob } from './services/draft-purge-job';
import type { DocumentStorage } from './storage/document-storage';
import { documentStorageFor } from './storage/local-disk-storage';

export interface RunningServer {
  url: string;
  port: number;
  orm: Orm;
  logger: Logger;
  gateways: Gateways;
  payments: PaymentDeps;
  storage: DocumentStorage;
  draftPurge: DraftPurgeJob;
  stop(): Promise<void>;
}

/** Database, migrations, seed, app, listen. Tests call this with port 0; main.ts with the configured port. */
export async function startServer(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const database = await openDatabase(config, (message) => logger.info(message));
  // MikroORM's lines (migrator progress) join the structured log and obey LOG_LEVEL; a failed
  // migration still throws below, whatever the level.
  const ormLog = logger.child({ component: 'mikro-orm' });
  const orm = await initOrm(database.url, config.dbPoolMax, {
    info: (line) => ormLog.info(line),
    warn: (line) => ormLog.warn(line),
    error: (line) => ormLog.error(line),
  });
  try {
    await migrate(orm);
    await seed(orm.em.fork(), { refreshCatalogue: !config.isProduction, demoPartners: config.seedDemoData });
  } catch (error) {
    await orm.close();
    await database.release();
    throw error;
  }

  const catalogue = new Catalogue(() => orm.em.fork());
  await catalogue.reload();

  // Listen first: with PORT=0 the links the service hands out (checkout pages, callback) need the port.
  const server: Server = http.createServer();
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  const publicBaseUrl = config.publicBaseUrl || `http://127.0.0.1:${port}`;
  const gateways = createGateways(config, () => publicBaseUrl, () => orm.em.fork());
  const payments: PaymentDeps = { payments: config.payments, gateways: gateways.registry, logger };
  const storage = documentStorageFor(config);
  const app = await createApp({
    orm,
    document: loadSpecDocument(),
    services: {
      config: { ...config, publicBaseUrl },
      catalogue,
      logger,
      payments,
      storage,
      isDatabaseUp: () => orm.isConnected(),
    },
    pages: gateways.sandbox.size > 0
      ? [sandboxCheckoutRouter({ gateways: gateways.sandbox, newEm: () => orm.em.fork(), merchantName: config.payments.merchantName, baseUrl: () => publicBaseUrl, logger })]
      : [],
  });
  server.on('request', app);
  const reconcileJob = new PaymentReconcileJob(() => orm.em.fork(), payments);
  reconcileJob.start();
  logger.info({ port, paymentMode: config.payments.mode }, 'listening');
  const draftPurge = startDraftPurgeJob(() => orm.em.fork(), storage, logger, {
    ttlHours: config.documentDraftTtlHours,
    intervalSeconds: config.documentPurgeIntervalSeconds,
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    orm,
    logger,
    gateways,
    payments,
    storage,
    draftPurge,
    stop: async () => {
      await draftPurge.stop();
      // Stop accepting, let in-flight requests finish, then close the pool and the embedded cluster.
      await reconcileJob.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await orm.close();
      await database.release();
    },
  };
}
