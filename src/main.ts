import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger, type Logger } from './kernel/logging/logger';
import { startServer, type RunningServer } from './server';
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
  // Before anything starts: a SIGTERM during start-up (a release rolled right after readiness)
  // must not take Node's default action, which drains nothing and leaves an embedded PostgreSQL running.
  const stop = stopOnSignal(logger);
  // A worker of `npm run start:cluster`: its primary migrated and seeded the database once for all.
  const server = await startServer(config, logger, { prepareDatabase: !cluster.isWorker });
  if (stop.requested()) return stop.whenStarted(server);
  // A parent that forked us (the cluster primary, benchmarks, multi-process tests) learns the port.
  process.send?.({ port: server.port, metricsPort: server.metricsPort });
  stop.whenStarted(server);
}

/**
 * SIGTERM and SIGINT stop the server gracefully (drain, jobs, pool, an embedded PostgreSQL started
 * here) and exit 0. One that arrives while the server is still starting is remembered: the start
 * runs to its end (a failed start takes down what it started itself), then the stop follows.
 */
export function stopOnSignal(logger: Logger): { requested(): boolean; whenStarted(server: RunningServer): void } {
  let signalled: string | undefined;
  let running: RunningServer | undefined;
  const stop = (server: RunningServer) =>
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  const onSignal = (signal: string) => {
    if (signalled) return;
    signalled = signal;
    logger.info({ signal, starting: running === undefined }, 'shutting down');
    if (running) void stop(running);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  return {
    requested: () => signalled !== undefined,
    whenStarted: (server) => {
      running = server;
      if (signalled) void stop(server);
    },
  };
}

/** Starts the server: `node dist/src/main.js`, `npm start` (scripts/start.mjs), a cluster worker. */
export function run(): void {
  main().catch(exitOnStartupFailure);
}

if (require.main === module) run();
