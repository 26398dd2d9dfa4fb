import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import { createLogger, type Logger } from '../../src/logger';
import { startServer, type RunningServer } from '../../src/server';
import { startPrism } from './prism';

/**
 * The tests run on DATABASE_URL, where sandbox payments and the demo partners exist only when
 * asked for: every server a test starts asks for them.
 */
export const SANDBOX_ENV = { PAYMENT_MODE: 'sandbox', SEED_DEMO_DATA: 'true' } as const;

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

/**
 * A real server on a free port over the run's PostgreSQL. Under `npm run mock:validate`
 * (PRISM_PROXY=1) tests talk to it through `prism proxy --errors`, which checks every request and
 * response against the document (see ApiClient for how its findings fail a test).
 */
export async function startTestServer(env: Record<string, string> = {}, logger?: Logger): Promise<RunningServer> {
  const config = testConfig(env);
  const server = await startServer(config, logger ?? createLogger(config.logLevel));
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
