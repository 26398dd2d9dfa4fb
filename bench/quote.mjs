// npm run bench: (a) bare Express, (b) the service's own request path (bench/servers/stack-baseline.mjs:
// the same middleware, openapi-backend and bearer check as src/app.ts) answering one primary-key
// SELECT, (c) authenticated POST /reference/quote on the real server, all measured in one run with
// autocannon at 50 connections, on one PostgreSQL. (b0), the same SELECT behind Express +
// openapi-backend + the bearer check without the service's middleware, is reported beside them.
// Ratios against (a) and (b) are what BENCHMARKS.md records; absolute numbers depend on the machine.
//
// The machine is shared (2 cores, other work comes and goes), so the targets are measured in
// interleaved rounds (a, b, c, b0, a, b, c, b0, ...) and each figure is the median over the rounds:
// a burst of outside load then hurts one round of each target rather than one whole target.
// BENCH_ROUNDS (default 5) and BENCH_SECONDS per target and round (default 10) tune it;
// BENCH_PROFILE=1 writes a V8 CPU profile of the service into bench/results/.
import autocannon from 'autocannon';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  here,
  postgresCpuByPid,
  postgresCpuSince,
  processCpuSeconds,
  startBenchServer,
  startForked,
  writeResult,
} from './support.mjs';

const require = createRequire(import.meta.url);
const { kathmanduToday, addDays } = require('../dist/src/kernel/business-date.js');

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** One autocannon run; also the CPU the target's server process and PostgreSQL used, in cores. */
function run(title, options, pid) {
  const started = { at: Date.now(), server: processCpuSeconds(pid), postgres: postgresCpuByPid() };
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: DURATION, ...options }, (error, result) => {
      if (error) return reject(error);
      const seconds = (Date.now() - started.at) / 1000;
      resolve({
        serverCores: (processCpuSeconds(pid) - started.server) / seconds,
        postgresCores: postgresCpuSince(started.postgres) / seconds,
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
  const service = await startBenchServer(
    'quote',
    {},
    { execArgv: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(here, 'results')}`] : [] },
  );
  const { authorization, companyId, databaseUrl } = service;
  const baselines = [];
  try {
    const bare = await startForked(path.join(here, 'servers/bare-express.mjs'));
    baselines.push(bare);
    const stack = await startForked(path.join(here, 'servers/stack-baseline.mjs'), {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    });
    baselines.push(stack);
    const leanStack = await startForked(path.join(here, 'servers/stack-baseline.mjs'), {
      DATABASE_URL: databaseUrl,
      BASELINE_STACK: 'lean',
    });
    baselines.push(leanStack);

    const quoteBody = JSON.stringify({
      nationality: 'German',
      ages: [34],
      startDate: addDays(kathmanduToday(), 30),
      duration: 16,
      routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
    });

    const warm = { duration: 2 };
    await run('warm-up', { url: `${bare.url}/fixed`, ...warm });
    await run('warm-up', { url: `${stack.url}/companies/${companyId}`, headers: { authorization }, ...warm });
    await run('warm-up', { url: `${leanStack.url}/companies/${companyId}`, headers: { authorization }, ...warm });
    await run('warm-up', {
      url: `${service.url}/api/external/v1/reference/quote`,
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: quoteBody,
      ...warm,
    });

    const targets = [
      { title: '(a) bare Express, fixed JSON', pid: bare.pid, options: { url: `${bare.url}/fixed` } },
      {
        title: '(b) service stack + bearer check + PK SELECT',
        pid: stack.pid,
        options: { url: `${stack.url}/companies/${companyId}`, headers: { authorization } },
      },
      {
        title: '(c) POST /reference/quote',
        pid: service.pid,
        options: {
          url: `${service.url}/api/external/v1/reference/quote`,
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: quoteBody,
        },
      },
      // Reported beside (b), not a target of the issue: the stack without the service's own middleware.
      {
        title: '(b0) lean stack + bearer check + PK SELECT',
        pid: leanStack.pid,
        options: { url: `${leanStack.url}/companies/${companyId}`, headers: { authorization } },
      },
    ];
    const loadBefore = os.loadavg()[0];
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const results = [];
      for (const target of targets) results.push(await run(target.title, target.options, target.pid));
      rounds.push(results);
      console.error(
        `round ${round}/${ROUNDS}: ${results.map((r) => `${r.requestsPerSecond.toFixed(0)} req/s p99 ${r.p99} ms`).join(' | ')}`,
      );
    }
    const median = (values) => {
      const sorted = [...values].sort((x, y) => x - y);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    };
    const [a, b, c, b0] = targets.map((target, i) => ({
      title: target.title,
      requestsPerSecond: median(rounds.map((r) => r[i].requestsPerSecond)),
      p50: median(rounds.map((r) => r[i].p50)),
      p99: median(rounds.map((r) => r[i].p99)),
      worstP99: Math.max(...rounds.map((r) => r[i].p99)),
      failures: rounds.reduce((sum, r) => sum + r[i].errors + r[i].non2xx, 0),
      total: rounds.reduce((sum, r) => sum + r[i].total, 0),
      serverCores: median(rounds.map((r) => r[i].serverCores)),
      postgresCores: median(rounds.map((r) => r[i].postgresCores)),
    }));
    // Ratios per round too: a round's targets ran back to back under the same outside load.
    const perRound = rounds.map((r) => ({
      ca: r[2].requestsPerSecond / r[0].requestsPerSecond,
      cb: r[2].requestsPerSecond / r[1].requestsPerSecond,
      ba: r[1].requestsPerSecond / r[0].requestsPerSecond,
    }));
    const pct = (x) => `${(x * 100).toFixed(1)}%`;

    const rows = [a, b, b0, c].map(
      (r) =>
        `| ${r.title} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.worstP99} | ${r.total} | ${r.failures} | ${r.serverCores.toFixed(2)} | ${r.postgresCores.toFixed(2)} |`,
    );
    const roundRows = rounds.map(
      (r, i) =>
        `| ${i + 1} | ${[r[0], r[1], r[3], r[2]].map((x) => `${x.requestsPerSecond.toFixed(0)} / ${x.p99}`).join(' | ')} | ${pct(perRound[i].ba)} | ${pct(perRound[i].ca)} | ${pct(perRound[i].cb)} |`,
    );
    const report = [
      `Run ${new Date().toISOString()}: ${ROUNDS} interleaved rounds of ${DURATION} s per target, ${CONNECTIONS} connections, ${os.cpus().length} x ${os.cpus()[0].model}, Node ${process.version}, 1-minute load average ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after`,
      '',
      '| target | req/s (median) | p50 ms | p99 ms (median) | p99 ms (worst round) | requests | errors + non-2xx | server process, cores | PostgreSQL, cores |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `(b)/(a) = ${pct(b.requestsPerSecond / a.requestsPerSecond)}; without the service's middleware (b0)/(a) = ${pct(b0.requestsPerSecond / a.requestsPerSecond)}, (c)/(b0) = ${pct(c.requestsPerSecond / b0.requestsPerSecond)}`,
      `(c)/(a) = ${pct(c.requestsPerSecond / a.requestsPerSecond)}  (target >= 17%; median of per-round ratios ${pct(median(perRound.map((r) => r.ca)))})`,
      `(c)/(b) = ${pct(c.requestsPerSecond / b.requestsPerSecond)}  (target >= 65%; median of per-round ratios ${pct(median(perRound.map((r) => r.cb)))})`,
      `(c) p99 = ${c.p99} ms median, ${c.worstP99} ms worst round (target < 100 ms); errors + non-2xx = ${c.failures} (target 0)`,
      '',
      '| round | (a) req/s / p99 | (b) req/s / p99 | (b0) req/s / p99 | (c) req/s / p99 | (b)/(a) | (c)/(a) | (c)/(b) |',
      '|---|---|---|---|---|---|---|---|',
      ...roundRows,
    ].join('\n');
    console.log(report);
    writeResult('quote', report);
  } finally {
    await Promise.all(baselines.map((baseline) => baseline.stop()));
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
