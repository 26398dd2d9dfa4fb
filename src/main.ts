import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger } from './kernel/logging/logger';
import { startServer } from './server';
import { StartupRefusal } from './kernel/startup-refusal';

/** Validated configuration, or a message per bad variable and exit code 2. */
export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/** Why the process could not start: one line for a refusal the operator must act on, else the error. */
export function exitOnStartupFailure(error: unknown): never {
  if (error instanceof StartupRefusal) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger(config.logLevel, config.logFormat === 'pretty' ? 'pretty' : undefined);
  // A worker of `npm run start:cluster`: its primary migrated and seeded the database once for all.
  const server = await startServer(config, logger, { prepareDatabase: !cluster.isWorker });
  // A parent that forked us (the cluster primary, benchmarks, multi-process tests) learns the port.
  process.send?.({ port: server.port, metricsPort: server.metricsPort });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Starts the server: `node dist/src/main.js`, `npm start` (scripts/start.mjs), a cluster worker. */
export function run(): void {
  main().catch(exitOnStartupFailure);
}

if (require.main === module) run();
