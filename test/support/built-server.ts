import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { initOrm } from '../../src/database';
import { type Orm } from '../../src/kernel/db/orm';

import { appendToServerLog } from './server-log';
import { startedServer } from './started-servers';
import { SANDBOX_ENV } from './test-server';

/** Every rate limit and write quota off: for load and fuzz runs, which must reach the handlers, not a 429. */
export const NO_WRITE_LIMITS = {
  RATE_LIMIT_TOKEN_PER_CLIENT: '0',
  RATE_LIMIT_TOKEN_PER_ADDRESS: '0',
  RATE_LIMIT_PROMO_PER_COMPANY: '0',
  RATE_LIMIT_UPLOAD_PER_COMPANY: '0',
  RATE_LIMIT_QUOTE_PER_COMPANY: '0',
  RATE_LIMIT_ORDER_PER_COMPANY: '0',
  RATE_LIMIT_TRAVELLER_PER_COMPANY: '0',
  RATE_LIMIT_PAY_PER_COMPANY: '0',
  DOCUMENT_MAX_DRAFTS_PER_COMPANY: '0',
} as const;

const ROOT = path.resolve(__dirname, '../..');

/**
 * The set-up every process test file shares: dist/ built once for the file, and an ORM on the
 * run's database for the test's own fixtures (`newPartner(fixtures, ...)`, `fixtures.orm.em`).
 */
export function builtServerFixtures(): { readonly orm: Orm } {
  let orm: Orm | undefined;
  beforeAll(async () => {
    buildServer();
    orm = await initOrm(process.env.TEST_DATABASE_URL as string, 2);
  }, 120_000);
  afterAll(() => orm?.close());
  return {
    get orm(): Orm {
      if (!orm) throw new Error('the fixtures ORM opens in beforeAll: use it inside a test');
      return orm;
    },
  };
}

/** Compiles src/ into dist/ the way `npm start` does, so process tests run what operators run. */
export function buildServer(): void {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** The METRICS_PORT listener's port, when METRICS_PORT was set. */
  metricsPort?: number;
  /** Every JSON log line the process (and its workers) printed so far. */
  logs(): Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

/**
 * Forks dist/src/<entry>.js on the test database with JSON logs on a pipe, and waits for the
 * `{ port }` message main.ts (or the cluster primary) sends once it listens.
 */
export async function forkServer(entry: 'main' | 'cluster', env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = forkEntry(entry, env);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    appendToServerLog(chunk);
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    appendToServerLog(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const { port, metricsPort } = await new Promise<{ port: number; metricsPort?: number }>((resolve, reject) => {
    child.on('message', (message: { port?: number; metricsPort?: number }) => {
      if (typeof message?.port === 'number') resolve({ port: message.port, metricsPort: message.metricsPort });
    });
    void exited.then((code) => reject(new Error(`${entry} exited with ${code} before listening:\n${errors}${output}`)));
  });
  const logs = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, port, metricsPort, url: `http://127.0.0.1:${port}`, logs, exited };
}

/** dist/src/<entry>.js on the test database; `env` values of '' unset a default. */
function forkEntry(entry: 'main' | 'cluster', env: Record<string, string>) {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (globalSetup)');
  const child = fork(path.join(ROOT, 'dist/src', `${entry}.js`), [], {
    cwd: ROOT,
    silent: true,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-process-')),
      ...SANDBOX_ENV,
      ...env,
    },
  });
  return startedServer(child);
}

/** Starts a server that is expected to refuse to start; resolves with its exit code and what it printed. */
export async function refusedStart(
  entry: 'main' | 'cluster',
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  const child = forkEntry(entry, env);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.resume();
  child.on('message', () => {
    child.kill('SIGTERM');
    stderr += '(it started listening)\n';
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, stderr };
}

export interface StartingServer {
  child: ChildProcess;
  /** Every JSON log line it printed so far. */
  logs(): Array<Record<string, unknown>>;
  /** The first JSON log line `accepts` takes, as soon as it is printed (one printed already counts). */
  line(accepts: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  stderr(): string;
  /** Once it has exited and every line it printed has been read. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Forks dist/src/<entry>.js without waiting for it to listen: for a test that acts while it is
 * still starting (a SIGTERM at its first line, or as soon as /healthz answers).
 */
export function forkStarting(entry: 'main' | 'cluster', env: Record<string, string>): StartingServer {
  const child = forkEntry(entry, env);
  const logs: Array<Record<string, unknown>> = [];
  const waiting: Array<{
    accepts: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  let pending = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    appendToServerLog(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((each) => each.startsWith('{'))) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      logs.push(parsed);
      for (const waiter of waiting.filter((each) => each.accepts(parsed))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(parsed);
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    appendToServerLog(chunk);
  });
  // 'close', not 'exit': every line it printed has been read by then.
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const line = (accepts: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const printed = logs.find(accepts);
      if (printed) return resolve(printed);
      waiting.push({ accepts, resolve });
      void closed.then(({ code }) =>
        reject(new Error(`${entry} exited with ${code} before the line waited for:\n${stderr}`)),
      );
    });
  return { child, logs: () => logs, line, stderr: () => stderr, closed };
}
