import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { initOrm, migrate, type Orm } from './db/orm';
import { seed } from './db/seed';
import { loadSpecDocument } from './http/spec-document';
import { createLogger, type Logger } from './logger';
import { Catalogue } from './services/catalogue';

export interface RunningServer {
  url: string;
  port: number;
  orm: Orm;
  logger: Logger;
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
  const app = await createApp({
    orm,
    document: loadSpecDocument(),
    services: {
      config,
      catalogue,
      logger,
      isDatabaseUp: () => orm.isConnected(),
    },
  });

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, 'listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    orm,
    logger,
    stop: async () => {
      // Stop accepting, let in-flight requests finish, then close the pool and the embedded cluster.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await orm.close();
      await database.release();
    },
  };
}
