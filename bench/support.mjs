// Shared by the document and traveller benchmarks: a built server on its own PostgreSQL, a demo token.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ensureLocalCluster } = require('../dist/src/kernel/db/local-cluster.js');
const { DEMO_PARTNERS } = require('../dist/src/modules/partners/demo-partners.js');
export const here = path.dirname(new URL(import.meta.url).pathname);

/**
 * Starts dist/src/main.js over DATABASE_URL or a throwaway embedded cluster; returns what a bench needs.
 * `execArgv` goes to the server's node (e.g. --cpu-prof). BENCH_CLUSTER_WORKERS=N starts
 * `npm run start:cluster`'s primary (dist/src/cluster.js) with N server processes instead.
 */
// The benches drive one company far past any partner's write rate: they measure speed, not the quotas.
const UNLIMITED_WRITES = {
  ...Object.fromEntries(
    ['UPLOAD', 'UPLOAD_BYTES', 'QUOTE', 'ORDER', 'TRAVELLER', 'PAY'].map((name) => [
      `RATE_LIMIT_${name}_PER_COMPANY`,
      '0',
    ]),
  ),
  DOCUMENT_MAX_DRAFTS_PER_COMPANY: '0',
};

export async function startBenchServer(name, env = {}, { execArgv = [] } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`));
  fs.chmodSync(dataDir, 0o755);
  const cluster = process.env.DATABASE_URL
    ? undefined
    : await ensureLocalCluster({ dataDir: path.join(dataDir, 'pg'), database: 'bench' });
  const databaseUrl = process.env.DATABASE_URL ?? cluster.url;
  const workers = process.env.BENCH_CLUSTER_WORKERS;
  const child = fork(path.join(here, workers ? '../dist/src/cluster.js' : '../dist/src/main.js'), [], {
    // As in production: the development default checks every answer against the document.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DOCUMENT_PURGE_INTERVAL_SECONDS: '0',
      PAYMENT_MODE: 'sandbox',
      WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: 'true',
      RESPONSE_VALIDATION: 'off',
      SEED_DEMO_DATA: 'true',
      ...(workers ? { CLUSTER_WORKERS: workers } : {}),
      ...UNLIMITED_WRITES,
      ...env,
    },
    execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.on('message', (m) => m.port && resolve(m.port));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const demo = DEMO_PARTNERS[0];
  const tokenResponse = await fetch(`${url}/api/external/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: demo.clientId, clientSecret: demo.clientSecret }),
  });
  const token = (await tokenResponse.json()).data.accessToken;
  return {
    url,
    pid: child.pid,
    databaseUrl,
    companyId: demo.companyId,
    authorization: `Bearer ${token}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await cluster?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU time (user + system) of a process and its live child processes (a cluster's workers), in seconds, from /proc. */
export function processCpuSeconds(pid) {
  const stat = (id) => fs.readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1].split(' ');
  try {
    const own = stat(pid);
    let ticks = Number(own[11]) + Number(own[12]);
    for (const child of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const fields = stat(child);
        if (fields[1] === String(pid)) ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // gone meanwhile
      }
    }
    return ticks / 100;
  } catch {
    return NaN;
  }
}

/** CPU time of each PostgreSQL process (postmaster, backends, background workers) by pid, in seconds. */
export function postgresCpuByPid() {
  const seconds = new Map();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres'))
        seconds.set(pid, processCpuSeconds(pid));
    } catch {
      // the process ended while we looked
    }
  }
  return seconds;
}

/** PostgreSQL's CPU seconds since `before` (a postgresCpuByPid result); a backend that ended meanwhile is not counted. */
export function postgresCpuSince(before) {
  let seconds = 0;
  for (const [pid, now] of postgresCpuByPid()) seconds += now - (before.get(pid) ?? 0);
  return seconds;
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function writeResult(name, text) {
  fs.mkdirSync(path.join(here, 'results'), { recursive: true });
  fs.writeFileSync(path.join(here, 'results', `${name}.md`), `${text}\n`);
}

/** Forks a small bench server (e.g. bench/servers/bare-express.mjs) that reports its port over IPC. */
export function startForked(script, env = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (message) =>
      resolve({
        url: `http://127.0.0.1:${message.port}`,
        pid: child.pid,
        async stop() {
          child.kill('SIGTERM');
          await new Promise((done) => child.once('exit', done));
        },
      }),
    );
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
