import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import { createLogger, type Logger } from '../../src/kernel/logging/logger';
import { startServer, type RunningServer } from '../../src/server';
import { ApiClient } from './http-client';
import { createOwnDatabase, type OwnDatabase } from './own-database';
import { startPrism } from './prism';
import { serverLog } from './server-log';

/**
 * The tests run on DATABASE_URL, where sandbox payments and the demo partners exist only when
 * asked for: every server a test starts asks for them.
 */
/** What `npm start`'s embedded default sets, tests' receivers on loopback included. */
export const SANDBOX_ENV = {
  PAYMENT_MODE: 'sandbox',
  SEED_DEMO_DATA: 'true',
  WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: 'true',
} as const;

export function testConfig(env: Record<string, string> = {}): Config {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (globalSetup)');
  return loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-data-')),
    ...SANDBOX_ENV,
    ...env,
  });
}

export interface TestServerOptions {
  /**
   * The periodic jobs (payment watch, refund executor, purges, commission close), the webhook
   * relay and delivery workers, and the refund pass after a cancellation: off unless a file asks.
   * Each acts on every row of the database, so a server running them in one file acted on
   * another file's orders, attempts and events. A test that needs one on says so; one that only
   * needs a pass calls its `runOnce()` (or `webhooks.relayOnce()`). useTestServer gives a server
   * that runs them a database of its own (unless `ownDatabase` names one), so it never acts on
   * another file's rows either.
   */
  backgroundJobs?: boolean;
}

/**
 * A real server on a free port over the run's PostgreSQL, its background jobs off unless asked
 * for (see TestServerOptions). Under `npm run mock:validate`
 * (PRISM_PROXY=1) tests talk to it through `prism proxy --errors`, which checks every request and
 * response against the document (see ApiClient for how its findings fail a test).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  logger?: Logger,
  { backgroundJobs = false }: TestServerOptions = {},
): Promise<RunningServer> {
  const config = testConfig(env);
  const server = await startServer(config, logger ?? fileLogger(env), { backgroundJobs });
  if (process.env.PRISM_PROXY !== '1') return server;
  const proxy = await startPrism('proxy', server.url);
  return {
    ...server,
    url: proxy.url,
    stop: async () => {
      await proxy.stop();
      await server.stop();
    },
  };
}

/**
 * The servers' lines go to this test file's log (see server-log.ts), at `info` unless the test
 * set LOG_LEVEL: kept when a test fails, they say what the server did and why it refused.
 */
function fileLogger(env: Record<string, string>): Logger {
  const destination = serverLog();
  return destination ? createLogger(env.LOG_LEVEL ?? 'info', destination) : createLogger('silent');
}

export interface UseTestServerOptions extends TestServerOptions {
  /** Read when the server starts, so it may name things an earlier beforeAll started (a simulator's port). */
  env?: Record<string, string> | (() => Record<string, string>);
  logger?: Logger;
  /**
   * A fresh database of its own, named after this purpose, dropped afterwards, with the
   * reconciliation job off: for files that must see only their own rows.
   */
  ownDatabase?: string;
}

export interface TestServer {
  server: RunningServer;
  client: ApiClient;
}

export interface UsedTestServer extends TestServer {
  /** The database the server runs on (its own with `ownDatabase`), for tools the test runs beside it. */
  databaseUrl: () => string;
}

/**
 * The one set-up of a test file (or describe block) that talks to a server: starts it before the
 * first test, stops it (and drops its own database) after the last. The returned `server` and
 * `client` stand for the ones started then, so test code names them directly instead of every
 * file keeping its own `let server` and the same beforeAll/afterAll.
 */
export function useTestServer(options: UseTestServerOptions = {}): UsedTestServer {
  let started: (TestServer & { database?: OwnDatabase }) | undefined;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    const purpose = options.ownDatabase ?? (options.backgroundJobs ? 'jobs' : undefined);
    const database = purpose === undefined ? undefined : await createOwnDatabase(purpose);
    const ownEnv: Record<string, string> = database
      ? { DATABASE_URL: database.url, PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' }
      : {};
    const server = await startTestServer({ ...ownEnv, ...env }, options.logger, {
      backgroundJobs: options.backgroundJobs,
    });
    started = { server, client: new ApiClient(server.url), database };
  });
  afterAll(async () => {
    await started?.server.stop();
    await started?.database?.drop();
  });
  const current = (): TestServer => {
    if (!started) throw new Error('useTestServer: the server is used before its beforeAll ran');
    return started;
  };
  return {
    server: lateBound(() => current().server),
    client: lateBound(() => current().client),
    databaseUrl: () => started?.database?.url ?? process.env.TEST_DATABASE_URL ?? '',
  };
}

/** An object that forwards to whatever `target()` returns when it is used, methods bound to it. */
function lateBound<T extends object>(target: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      const value: unknown = Reflect.get(target(), key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target()) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may report a property only as configurable when its own (empty) target lacks it.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
