import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Logger } from '../../src/kernel/logging/logger';
import type { RunningServer } from '../../src/server';
import { ApiClient } from './http-client';
import { newPartner, type TestPartner } from './partners';
import { startTestServer, type TestServerOptions } from './test-server';

export interface OwnDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database on the run's PostgreSQL server, for a test that must see only its own rows
 * (the invariant checker: other files deliberately leave orders PAID without a payment to test
 * the refusals). The server started on it migrates it like any other.
 */
export async function createOwnDatabase(purpose: string): Promise<OwnDatabase> {
  const shared = process.env.TEST_DATABASE_URL;
  if (!shared) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (globalSetup)');
  const name = `pbs_${purpose}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface OwnDatabaseServer {
  database: OwnDatabase;
  server: RunningServer;
  client: ApiClient;
  partner: TestPartner;
}

/** A test server (reconciliation job off) on a fresh database of its own, with one partner signed in. */
export async function startOnOwnDatabase(
  purpose: string,
  logger?: Logger,
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<OwnDatabaseServer> {
  const database = await createOwnDatabase(purpose);
  const server = await startTestServer(
    { DATABASE_URL: database.url, PAYMENT_RECONCILE_INTERVAL_SECONDS: '0', ...env },
    logger,
    options,
  );
  const client = new ApiClient(server.url);
  return { database, server, client, partner: await newPartner(server, client) };
}

export async function stopOwnDatabase(own: Partial<OwnDatabaseServer>): Promise<void> {
  await own.server?.stop();
  await own.database?.drop();
}
