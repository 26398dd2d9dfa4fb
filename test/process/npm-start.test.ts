import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expectContract } from '../support/contract';
import { until } from '../support/eventually';
import { builtServerFixtures } from '../support/built-server';
import { at } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { connects, heldRequest } from '../support/raw-socket';
import { newPartner } from '../support/partners';
import { startedServer } from '../support/started-servers';
import { SANDBOX_ENV } from '../support/test-server';

/**
 * `npm start` as an operator or a process manager runs it: the README's command, a signal to npm
 * or to the server it started, and the starts that cannot succeed.
 */
const ROOT = path.resolve(__dirname, '../..');
const TOKEN = '/api/external/v1/auth/token';
/** How long npm start may take to print a line, and how often its output is read. */
const NPM_START = { timeoutMs: 60_000, intervalMs: 50 };

interface NpmStart {
  npm: ChildProcess;
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

function npmStart(env: Record<string, string>): NpmStart {
  const npm = startedServer(
    spawn('npm', ['start'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let out = '';
  let err = '';
  npm.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  return { npm, exited, stdout: () => out, stderr: () => err };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const parentOf = (pid: number) =>
  Number(
    at(
      at(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') '), 1, 'the process stat').split(' '),
      1,
      'the process stat',
    ),
  );

/** The server's `listening` line: its pid and port. */
const listening = (started: NpmStart) => () => {
  for (const line of started.stdout().split('\n')) {
    if (!line.startsWith('{')) continue;
    const parsed = JSON.parse(line) as { msg?: string; pid?: number; port?: number };
    if (parsed.msg === 'listening') return { pid: parsed.pid as number, port: parsed.port as number };
  }
  return undefined;
};

const fixtures = builtServerFixtures();

describe('npm start, stopped the way a process manager stops it', () => {
  it.each([
    ['npm itself', (started: NpmStart) => started.npm.pid as number],
    ['the server process npm started', (_started: NpmStart, serverPid: number) => serverPid],
  ])(
    'on SIGTERM to %s, the request in flight completes, the server exits 0 and no process is left',
    async (_target, victim) => {
      const started = npmStart({
        ...SANDBOX_ENV,
        DATABASE_URL: process.env.TEST_DATABASE_URL as string,
        PORT: String(await freePort()),
      });
      const server = await until('the listening line', listening(started), NPM_START);
      // npm runs the server itself: no shell in between that would swallow the signal.
      expect(parentOf(server.pid)).toBe(started.npm.pid);
      const partner = await newPartner(fixtures, new ApiClient(`http://127.0.0.1:${server.port}`));

      const inFlight = heldRequest(
        server.port,
        TOKEN,
        JSON.stringify({ clientId: partner.clientId, clientSecret: partner.clientSecret }),
      );
      // The half-sent request reaches the server before the signal does: its 100 Continue says so.
      await inFlight.started;
      process.kill(victim(started, server.pid), 'SIGTERM');
      await until('the shutdown to begin', () => started.stdout().includes('"msg":"shutting down"'), NPM_START);
      inFlight.finish();

      const raw = await inFlight.closed;
      expect(raw).toMatch(/^HTTP\/1\.1 200 OK/);
      await expectContract('issueToken', 200, JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)));
      expect(await started.exited).toBe(0);
      expect(alive(server.pid)).toBe(false);
      expect(started.stdout()).toContain('"msg":"database pool closed"');
    },
    120_000,
  );
});

describe('npm start that cannot succeed', () => {
  it('says in one line that the port is in use, exits non-zero, and stops the embedded PostgreSQL it started', async () => {
    const occupied = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => occupied.once('listening', resolve));
    const { port } = occupied.address() as net.AddressInfo;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-start-'));
    fs.chmodSync(dataDir, 0o755);
    try {
      const started = npmStart({ ...SANDBOX_ENV, DATA_DIR: dataDir, PORT: String(port) });
      expect(await started.exited).toBe(2);
      expect(started.stderr().trim().split('\n')).toEqual([
        `cannot start: port ${port} on 127.0.0.1 is already in use (stop the other process, or set PORT)`,
      ]);
      const cluster = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as { port: number };
      expect(await connects(cluster.port)).toBe(false);
    } finally {
      occupied.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('says in one line that the database cannot be reached, without its password, and exits non-zero', async () => {
    const started = npmStart({
      DATABASE_URL: `postgresql://partner:s3cret-pass@127.0.0.1:${await freePort()}/partner_booking`,
      PORT: String(await freePort()),
    });
    expect(await started.exited).toBe(2);
    const lines = started.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^cannot start: the database at 127\.0\.0\.1:\d+\/partner_booking \(DATABASE_URL\) cannot be reached \(ECONNREFUSED\)/,
    );
    expect(started.stderr() + started.stdout()).not.toContain('s3cret-pass');
  }, 60_000);
});

describe('npm run ops, the operator command line', () => {
  it('prints nothing but the JSON on stdout with --json: no npm banner, no build output', async () => {
    const ops = spawnSync('npm', ['run', 'ops', '--', 'demo', '--json'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        DATABASE_URL: process.env.TEST_DATABASE_URL as string,
        ...SANDBOX_ENV,
      },
      encoding: 'utf8',
    });
    expect(ops.status).toBe(0);
    const partners = JSON.parse(ops.stdout) as Array<{ clientId: string }>;
    expect(partners.map((partner) => partner.clientId)).toContain('demo-everest-trails');
  }, 60_000);
});
