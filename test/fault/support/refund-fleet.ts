import fs from 'node:fs';
import path from 'node:path';
import { initOrm } from '../../../src/database';
import type { Orm } from '../../../src/kernel/db/orm';
import { ApiClient } from '../../support/http-client';
import { newPartner, type TestPartner } from '../../support/partners';
import { startEsewaSimulator, type EsewaSimulator } from '../../simulators/esewa-simulator';
import { startKhaltiSimulator, type KhaltiSimulator } from '../../simulators/khalti-simulator';
import { simulatedProvidersEnv } from '../../simulators/simulator-server';
import { ServerFleet } from './server-fleet';
import { ThrowawayPostgres } from './throwaway-postgres';

/** What the refund fault files run against: the provider simulators, a throwaway PostgreSQL, two built server processes, a partner. */
export interface RefundFleet {
  khalti: KhaltiSimulator;
  esewa: EsewaSimulator;
  postgres: ThrowawayPostgres;
  fleet: ServerFleet;
  orm: Orm;
  clients: ApiClient[];
  partner: TestPartner;
}

/**
 * Starts two built server processes with card_gateway on the Khalti simulator (`env` adds the
 * file's own settings), an ORM of `ormPool` connections beside them and a partner.
 */
export async function startRefundFleet(env: Record<string, string>, ormPool: number): Promise<RefundFleet> {
  if (!fs.existsSync(path.resolve(__dirname, '../../../dist/src/main.js')))
    throw new Error('run `npm run build` first (npm run test:faults does)');
  const [khalti, esewa] = await Promise.all([startKhaltiSimulator(), startEsewaSimulator()]);
  const postgres = await ThrowawayPostgres.start();
  const fleet = new ServerFleet(postgres.url, {
    ...simulatedProvidersEnv(khalti, esewa),
    PAYMENT_PROVIDER_LOOKUP_ATTEMPTS: '1',
    RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: '0',
    REFUND_INTERVAL_SECONDS: '1',
    REFUND_RETRY_BASE_SECONDS: '1',
    ...env,
  });
  await fleet.start(2);
  const orm = await initOrm(postgres.url, ormPool);
  const clients = fleet.urls.map((url) => new ApiClient(url));
  const first = clients[0];
  if (!first) throw new Error('the fleet started no server');
  const partner = await newPartner({ orm }, first);
  return { khalti, esewa, postgres, fleet, orm, clients, partner };
}

/** Stops what startRefundFleet started, whatever of it started. */
export async function stopRefundFleet(started: Partial<RefundFleet>): Promise<void> {
  await started.orm?.close(true);
  await started.fleet?.stop();
  await started.postgres?.destroy();
  await Promise.all([started.khalti?.stop(), started.esewa?.stop()]);
}
