import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { tokenHash } from '../../src/modules/auth/rules/credential-secret';
import { TOKEN_CHECK_LISTENER_NAME } from '../../src/modules/auth/token-check-listener';
import { present } from '../../src/kernel/narrow';
import { builtServerFixtures, forkServer, type ServerProcess } from '../support/built-server';
import { expectContract } from '../support/contract';
import { until } from '../support/eventually';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { SANDBOX_ENV } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

const fixtures = builtServerFixtures();
const CLI = path.resolve(__dirname, '../../dist/src/cli/main.js');
const CTGS = '/api/external/v1/reference/ctgs';

/** The real operator CLI, run asynchronously so that the load keeps running meanwhile. */
async function ops(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args, '--json'], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: process.env.TEST_DATABASE_URL, ...SANDBOX_ENV },
    timeout: 60_000,
  });
  return stdout;
}

interface Sent {
  at: number;
  status: number;
}

/** Connections that keep calling `GET /reference/ctgs` with one token until stopped, recording when each call was sent. */
function loadWith(server: ServerProcess, token: string, connections = 4) {
  const sent: Sent[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      const at = Date.now();
      const response = await fetch(`${server.url}${CTGS}`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      sent.push({ at, status: response.status });
    }
  };
  const loops = Promise.all(Array.from({ length: connections }, loop));
  return {
    sent,
    stop: async () => {
      running = false;
      await loops;
    },
  };
}

/**
 * Issue 22's proof: each server process keeps its own cache of bearer checks, and a revocation
 * made by the operator CLI (another process, its own transaction) reaches both through the
 * database's NOTIFY before the CLI has even exited.
 */
describe('two server processes serving one token under load, and the operator CLI', () => {
  let first: ServerProcess;
  let second: ServerProcess;

  beforeAll(async () => {
    // One after the other: the first migrates and seeds the database the second then finds ready.
    first = await forkServer('main', { LOG_LEVEL: 'warn' });
    second = await forkServer('main', { LOG_LEVEL: 'warn' });
  }, 120_000);
  afterAll(async () => {
    for (const server of [first, second]) server?.child.kill('SIGTERM');
    await Promise.all([first?.exited, second?.exited]);
  });

  /** Loads both processes, runs `change`, then checks the first call to each after it returned and every call sent after it. */
  async function expectLockedOutOnBoth(
    partner: TestPartner,
    change: () => Promise<unknown>,
    message: string,
  ): Promise<void> {
    const loads = [loadWith(first, partner.token), loadWith(second, partner.token)];
    try {
      await until(
        '50 answered calls on each process',
        () => loads.every((load) => load.sent.filter((call) => call.status === 200).length >= 50),
        { timeoutMs: 30_000, intervalMs: 20 },
      );
      await change();
      const returned = Date.now();
      for (const server of [first, second]) {
        const response = await new ApiClient(server.url).op('listCtgs', 'GET', CTGS, undefined, {
          token: partner.token,
        });
        expectStatus(response, 401);
        expect(response.body.message).toBe(message);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const load of loads) {
        const after = load.sent.filter((call) => call.at >= returned);
        expect(after.length).toBeGreaterThan(0);
        expect(after.filter((call) => call.status !== 401)).toEqual([]);
      }
    } finally {
      await Promise.all(loads.map((load) => load.stop()));
    }
  }

  it("when `credential revoke` returns, then the first request to each process with the credential's token gets a 401 in the contract's shape", async () => {
    const partner = await newPartner(fixtures, new ApiClient(first.url));
    // The revoke ends the credential's tokens too; the check names the token first.
    await expectLockedOutOnBoth(
      partner,
      () => ops('credential', 'revoke', partner.clientId),
      'Access token has been revoked',
    );
  }, 90_000);

  it("when `company deactivate` returns, then the first request to each process with the company's token gets a 401", async () => {
    const partner = await newPartner(fixtures, new ApiClient(second.url));
    await expectLockedOutOnBoth(
      partner,
      () => ops('company', 'deactivate', partner.companyId),
      'Company account is inactive',
    );
  }, 90_000);

  it('when an operator revokes one token with psql, then the first request to each process with it gets a 401', async () => {
    const partner = await newPartner(fixtures, new ApiClient(first.url));
    const psql = async () => {
      const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query('update access_token set revoked_at = now() where token_hash = $1', [
        tokenHash(partner.token),
      ]);
      await client.end();
    };
    await expectLockedOutOnBoth(partner, psql, 'Access token has been revoked');
  }, 90_000);

  it('has each process listen for revocations on its own connection (so each keeps a cache)', async () => {
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where application_name = $1',
        [TOKEN_CHECK_LISTENER_NAME],
      );
      expect(present(rows[0], 'the count of listeners').n).toBeGreaterThanOrEqual(2);
    } finally {
      await client.end();
    }
  });

  it('answers the 401 body the contract defines', async () => {
    const response = await new ApiClient(first.url).call('GET', CTGS, undefined, { token: 'not-a-token' });
    expectStatus(response, 401);
    await expectContract('listCtgs', 401, response.body);
  });
});
