import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startServer, type RunningServer } from '../../src/server';

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
    ...env,
  });
}

/** A real server on a free port over the run's PostgreSQL. */
export async function startTestServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const config = testConfig(env);
  return startServer(config, createLogger(config.logLevel));
}
