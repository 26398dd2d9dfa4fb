import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_AGENTS, DEMO_PARTNERS } from '../../src/modules/partners/demo-partners';
import { expectContract, expectSchema } from '../support/contract';
import {
  builtServerFixtures,
  forkServer,
  forkStarting,
  refusedStart,
  type ServerProcess,
  type StartingServer,
} from '../support/built-server';
import { liveProvidersEnv } from '../support/live-providers-env';
import { ApiClient } from '../support/http-client';
import { connects, heldRequest } from '../support/raw-socket';
import { createOwnDatabase, type OwnDatabase } from '../support/own-database';
import { newPartner } from '../support/partners';
import { eventually, until } from '../support/eventually';
import { freePort } from '../../src/kernel/db/local-cluster';
import { expectStatus } from '../support/expect-status';

const TOKEN = '/api/external/v1/auth/token';

/** One request on a fresh connection, so node:cluster hands each to the next worker. */
function postOnNewConnection(port: number, path: string, payload: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(payload);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const fixtures = builtServerFixtures();

describe('graceful shutdown on SIGTERM', () => {
  it('stops accepting, finishes the request in flight, then closes the pool and exits 0', async () => {
    const server = await forkServer('main');
    const partner = await newPartner(fixtures, new ApiClient(server.url));
    // An idle keep-alive connection must not hold the shutdown up.
    const keepAlive = new http.Agent({ keepAlive: true });
    await new Promise((resolve) =>
      http.get(`${server.url}/healthz`, { agent: keepAlive }, (response) => response.resume().on('end', resolve)),
    );

    const inFlight = heldRequest(
      server.port,
      TOKEN,
      JSON.stringify({ clientId: partner.clientId, clientSecret: partner.clientSecret }),
    );
    await inFlight.started; // the server's 100 Continue: the request is in flight there
    server.child.kill('SIGTERM');

    expect(
      await eventually(
        () => connects(server.port),
        (accepted) => !accepted,
        { timeoutMs: 5_000, intervalMs: 50 },
      ),
    ).toBe(false);
    expect(server.child.exitCode).toBeNull(); // still waiting for the request in flight

    inFlight.finish();
    const raw = await inFlight.closed;
    expect(raw).toMatch(/^HTTP\/1\.1 200 OK/);
    await expectContract('issueToken', 200, JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)));
    expect(await server.exited).toBe(0);
    keepAlive.destroy();

    const messages = server
      .logs()
      .map((line) => (line.msg === 'request' ? `request ${String(line.status)}` : line.msg));
    const order = ['shutting down', 'request 200', 'http server closed', 'database pool closed'].map((msg) =>
      messages.lastIndexOf(msg),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('cuts a request that outlives SHUTDOWN_TIMEOUT_MS and still exits', async () => {
    const server = await forkServer('main', { SHUTDOWN_TIMEOUT_MS: '300' });
    const stuck = heldRequest(server.port, TOKEN, JSON.stringify({ clientId: 'x', clientSecret: 'y' }));
    await stuck.started;
    server.child.kill('SIGTERM');
    // It exits although the request never finishes: the cut, not the request, ended the wait.
    expect(await server.exited).toBe(0);
    expect(await stuck.closed).toBe('');
    expect(server.logs().map((line) => line.msg)).toContain(
      'in-flight requests did not finish in time; closing their connections',
    );
  });
});

describe('a SIGTERM while the server is still starting', () => {
  // One embedded PostgreSQL for the cases: the first initialises it, the others start it again.
  let dataDir: string;
  const embedded = () => ({ DATABASE_URL: '', DATA_DIR: dataDir });
  const postgresPid = () => {
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    return fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : undefined;
  };
  const embeddedPort = () =>
    (JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as { port: number }).port;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-early-stop-'));
    // Run as root, the embedded PostgreSQL runs as an unprivileged user, which must reach the directory.
    fs.chmodSync(dataDir, 0o755);
  });
  afterEach(() => {
    // A server killed without its stop leaves the cluster running: stop it, for the next case.
    const pid = postgresPid();
    if (pid !== undefined) process.kill(pid, 'SIGTERM');
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  /** 200 from /healthz on that port, false while nothing (or not yet the app) answers there. */
  const healthy = (port: number) =>
    new Promise<boolean>((resolve) => {
      http
        .get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (response) =>
          resolve(response.resume().statusCode === 200),
        )
        .on('error', () => resolve(false));
    });

  it.each([
    [
      'main',
      'at its first line (the embedded PostgreSQL starting)',
      (server: StartingServer) => server.line(() => true),
    ],
    // What an orchestrator does right after readiness: the jobs may still be starting then.
    [
      'main',
      'as soon as /healthz answers 200',
      (_server: StartingServer, port: number) =>
        until('/healthz to answer 200', () => healthy(port), { timeoutMs: 60_000, intervalMs: 5 }),
    ],
    ['main', 'at its listening line', (server: StartingServer) => server.line((line) => line.msg === 'listening')],
    ['cluster', "at the primary's first line", (server: StartingServer) => server.line(() => true)],
  ] as const)(
    '%s stopped %s finishes starting, then drains, closes the pool, stops the embedded PostgreSQL and exits 0',
    async (entry, _moment, stopAt) => {
      const port = await freePort();
      const server = forkStarting(entry, { ...embedded(), PORT: String(port), CLUSTER_WORKERS: '1' });
      await stopAt(server, port);
      server.child.kill('SIGTERM');
      expect({ ...(await server.closed), stderr: server.stderr() }).toEqual({ code: 0, signal: null, stderr: '' });
      const messages = server.logs().map((line) => line.msg);
      if (entry === 'main') {
        expect(messages.filter((msg) => msg === 'shutting down' || msg === 'database pool closed')).toEqual([
          'shutting down',
          'database pool closed',
        ]);
      } else {
        expect(messages).toContain('stopping the cluster');
        expect(messages).toContain('cluster stopped');
      }
      expect(postgresPid()).toBeUndefined();
      expect(await connects(embeddedPort())).toBe(false);
    },
    120_000,
  );
});

describe('npm run start:cluster', () => {
  it('runs N workers on one port whose rate limit is shared through PostgreSQL, and stops them all on SIGTERM', async () => {
    // An hour's window: the test's nine token calls must not straddle a window boundary (a new window counts from 0).
    const cluster = await forkServer('cluster', {
      CLUSTER_WORKERS: '2',
      RATE_LIMIT_TOKEN_PER_CLIENT: '4',
      RATE_LIMIT_WINDOW_SECONDS: '3600',
    });
    const partner = await newPartner(fixtures, new ApiClient(cluster.url)); // counts as the first of the four

    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const response = await postOnNewConnection(cluster.port, TOKEN, {
        clientId: partner.clientId,
        clientSecret: partner.clientSecret,
      });
      await expectContract('issueToken', response.status, response.body);
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);

    const servedBy = new Set(
      cluster
        .logs()
        .filter((line) => line.msg === 'request' && line.path === TOKEN)
        .map((line) => line.pid),
    );
    expect(servedBy.size).toBe(2);

    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
    const messages = cluster.logs().map((line) => line.msg);
    expect(messages.filter((msg) => msg === 'database pool closed')).toHaveLength(2);
    expect(messages).toContain('cluster stopped');
    await fixtures.orm.em
      .fork()
      .getConnection()
      .execute('delete from rate_limit_bucket where key = ?', [`token:client:${partner.clientId}`]);
  });
});

describe('production fails closed', () => {
  let database: OwnDatabase;
  // Values of '' unset what the test helpers ask for: this is what an operator gets by default.
  const deployment = () => ({
    NODE_ENV: '',
    PAYMENT_MODE: '',
    SEED_DEMO_DATA: '',
    WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: '',
    DATABASE_URL: database.url,
  });
  const liveProviders = liveProvidersEnv();
  const demoToken = (server: ServerProcess) =>
    new ApiClient(server.url).op('issueToken', 'POST', TOKEN, {
      clientId: DEMO_PARTNERS[0].clientId,
      clientSecret: DEMO_PARTNERS[0].clientSecret,
    });
  const stop = async (server: ServerProcess) => {
    server.child.kill('SIGTERM');
    await server.exited;
  };

  beforeAll(async () => {
    database = await createOwnDatabase('fail_closed');
  });
  afterAll(() => database.drop());

  it('when a DATABASE_URL deployment asks for nothing, then it runs neither the sandbox gateways nor the demo partners', async () => {
    const server = await forkServer('main', deployment());
    try {
      expectStatus(await demoToken(server), 401);
      const checkout = await new ApiClient(server.url).call(
        'GET',
        '/sandbox/card_gateway/checkout/ORD-2026-000001-1789892411482',
      );
      expectStatus(checkout, 404);
      expectSchema('ApiError', checkout.body);
      expect(server.logs().find((line) => line.msg === 'listening')).toMatchObject({ paymentMode: 'live' });
    } finally {
      await stop(server);
    }
  });

  it('when demo data is active, even with the demo credentials revoked, then production refuses to start in one line naming it and the command that ends it, and starts once that has run', async () => {
    await stop(await forkServer('main', { ...deployment(), SEED_DEMO_DATA: 'true' }));
    // A database from before its mode was recorded (decision record 0093), which is how demo data got into production.
    const client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query('delete from database_mode');
    await client.end();
    const ops = (...args: string[]) =>
      spawnSync(process.execPath, [path.resolve(__dirname, '../../dist/src/cli/main.js'), ...args], {
        env: { PATH: process.env.PATH, DATABASE_URL: database.url },
        encoding: 'utf8',
      });
    const refusal = async () => {
      const refused = await refusedStart('main', { ...deployment(), ...liveProviders, NODE_ENV: 'production' });
      expect(refused.code).toBe(2);
      const lines = refused.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('npm run ops -- demo deactivate');
      return lines[0] ?? '';
    };

    const everything = await refusal();
    for (const partner of DEMO_PARTNERS) expect(everything).toContain(partner.clientId);

    // Revoking the credentials alone leaves the published codes working for a real partner's orders.
    for (const partner of DEMO_PARTNERS) expect(ops('credential', 'revoke', partner.clientId).status).toBe(0);
    const codesLeft = await refusal();
    expect(codesLeft).not.toContain(DEMO_PARTNERS[0].clientId);
    for (const partner of DEMO_PARTNERS) expect(codesLeft).toContain(partner.name);
    for (const agent of DEMO_AGENTS) expect(codesLeft).toContain(agent.name);
    for (const code of ['HIMALAYA10', 'ONCE25', 'SUMMIT500', 'PEMBA5', 'ANITA300']) expect(codesLeft).toContain(code);

    const deactivated = ops('demo', 'deactivate', '--json');
    expect(deactivated.status).toBe(0);
    expect(JSON.parse(deactivated.stdout)).toMatchObject({ credentials: [], agents: ['Anita Gurung', 'Pemba Sherpa'] });
    const codes = JSON.parse(ops('promo', 'list', '--json').stdout) as Array<{ code: string; active: boolean }>;
    expect(codes.filter((code) => code.active)).toEqual([]);
    const server = await forkServer('main', { ...deployment(), ...liveProviders, NODE_ENV: 'production' });
    try {
      expectStatus(await demoToken(server), 401);
    } finally {
      await stop(server);
    }
  }, 180_000);

  it('when a gateway has no live provider, then production refuses to start with one line naming the variable', async () => {
    const refused = await refusedStart('main', {
      ...deployment(),
      ...liveProviders,
      WALLET_GATEWAY_PROVIDER: '',
      NODE_ENV: 'production',
    });
    expect(refused.code).toBe(2);
    const problems = refused.stderr
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('  - '));
    expect(problems).toEqual([
      '  - WALLET_GATEWAY_PROVIDER is not set: in production wallet_gateway needs a live provider (khalti or esewa)',
    ]);
  });
});
