// npm run bench: (a) bare Express, (b) the service stack answering one primary-key SELECT behind
// the bearer check, (c) authenticated POST /reference/quote on the real server, all measured in
// one run with autocannon at 50 connections, on one PostgreSQL. Ratios against (a) and (b) are
// what BENCHMARKS.md records; absolute numbers depend on the machine.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ensureLocalCluster } = require('../dist/src/db/local-cluster.js');
const { kathmanduToday, addDays } = require('../dist/src/domain/business-date.js');
const { DEMO_PARTNERS } = require('../dist/src/db/demo-partners.js');

const DURATION = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const here = path.dirname(new URL(import.meta.url).pathname);

function startProcess(script, env, args = []) {
  return new Promise((resolve, reject) => {
    const child = fork(script, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (message) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function waitForHttp(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function run(title, options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...options }, (error, result) => {
      if (error) return reject(error);
      resolve({
        title,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        total: result.requests.total,
      });
    });
  });
}

async function main() {
  const external = process.env.DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  fs.chmodSync(dataDir, 0o755);
  const cluster = external ? undefined : await ensureLocalCluster({ dataDir, database: 'bench' });
  const databaseUrl = external ?? cluster.url;
  const children = [];
  try {
    const service = fork(path.join(here, '../dist/src/main.js'), [], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'warn', DATA_DIR: dataDir },
      execArgv: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(here, 'results')}`] : [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(service);
    const servicePort = await new Promise((resolve) => service.on('message', (m) => m.port && resolve(m.port)));
    const serviceUrl = `http://127.0.0.1:${servicePort}`;
    await waitForHttp(`${serviceUrl}/healthz`);

    const demo = DEMO_PARTNERS[0];
    const tokenResponse = await fetch(`${serviceUrl}/api/external/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: demo.clientId, clientSecret: demo.clientSecret }),
    });
    const token = (await tokenResponse.json()).data.accessToken;
    const authorization = `Bearer ${token}`;

    const bare = await startProcess(path.join(here, 'servers/bare-express.mjs'), {});
    children.push(bare.child);
    const stack = await startProcess(path.join(here, 'servers/stack-baseline.mjs'), { DATABASE_URL: databaseUrl });
    children.push(stack.child);

    const quoteBody = JSON.stringify({
      nationality: 'German',
      ages: [34],
      startDate: addDays(kathmanduToday(), 30),
      duration: 16,
      routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
    });

    const warm = { duration: 2 };
    await run('warm-up', { url: `http://127.0.0.1:${bare.port}/fixed`, ...warm });
    await run('warm-up', { url: `http://127.0.0.1:${stack.port}/companies/${demo.companyId}`, headers: { authorization }, ...warm });
    await run('warm-up', { url: `${serviceUrl}/api/external/v1/reference/quote`, method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: quoteBody, ...warm });

    const a = await run('(a) bare Express, fixed JSON', { url: `http://127.0.0.1:${bare.port}/fixed` });
    const b = await run('(b) stack + bearer check + PK SELECT', { url: `http://127.0.0.1:${stack.port}/companies/${demo.companyId}`, headers: { authorization } });
    const c = await run('(c) POST /reference/quote', {
      url: `${serviceUrl}/api/external/v1/reference/quote`,
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: quoteBody,
    });

    const rows = [a, b, c].map((r) => `| ${r.title} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} |`);
    const report = [
      `Run ${new Date().toISOString()}, ${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} cores, Node ${process.version}`,
      '',
      '| target | req/s | p50 ms | p99 ms | errors + non-2xx |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `(b)/(a) = ${(b.requestsPerSecond / a.requestsPerSecond * 100).toFixed(1)}%`,
      `(c)/(a) = ${(c.requestsPerSecond / a.requestsPerSecond * 100).toFixed(1)}%  (target >= 15%)`,
      `(c)/(b) = ${(c.requestsPerSecond / b.requestsPerSecond * 100).toFixed(1)}%  (target >= 65%)`,
      `(c) p99 = ${c.p99} ms (target < 100 ms), errors = ${c.errors + c.non2xx} (target 0)`,
    ].join('\n');
    console.log(report);
    fs.mkdirSync(path.join(here, 'results'), { recursive: true });
    fs.writeFileSync(path.join(here, 'results', 'quote.md'), `${report}\n`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
