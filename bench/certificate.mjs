// Certificate PDFs under load: latency at CERT_CONCURRENCY concurrent requests (target p99 under
// 150 ms at 10) and the server's resident memory over CERT_COUNT certificates (target: flat).
// Setup over the API: one partner, CERT_ORDERS travellers (half of them with a Devanagari name,
// the costlier path: a second embedded face and its shaping), one paid order each (sandbox card
// checkout). Then CERT_COUNT GET /certificate requests, round robin over the orders, from
// CERT_CONCURRENCY workers; the server's VmRSS is read every 100 certificates.
// CERT_PROFILE=1 writes a V8 CPU profile of the server into bench/results/ (node bench/profile-summary.mjs reads it).
// Run: npm run bench:certificate
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { API, call, createPartners, payByCard, registerTravellers, ROUTE_IDS } from './bench-partners.mjs';
import { here, percentile, processCpuSeconds, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { addDays, ageOn, kathmanduToday } = require('../dist/src/kernel/business-date.js');

const COUNT = Number(process.env.CERT_COUNT ?? 1000);
const CONCURRENCY = Number(process.env.CERT_CONCURRENCY ?? 10);
const ORDERS = Number(process.env.CERT_ORDERS ?? 10);
const WARM_UP = 50;
const SAMPLE_EVERY = 100;
const DEVANAGARI_NAME = 'सीता शर्मा';

/** V8's heap in use and the memory outside it (Buffers, zlib), from prom-client's process metrics on GET /metrics. */
async function heapOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { heapUsed: value('nodejs_heap_size_used_bytes'), external: value('nodejs_external_memory_bytes') };
}
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

/** One paid order per traveller: quote (for the package of the route), order, sandbox card checkout, callback. */
async function paidOrders(server, partner) {
  const headers = { authorization: `Bearer ${partner.token}`, 'content-type': 'application/json' };
  const departureDate = addDays(kathmanduToday(), 30);
  const orderRefs = [];
  for (const traveller of partner.travellers) {
    const routeId = ROUTE_IDS[orderRefs.length % ROUTE_IDS.length];
    const quote = await call(
      `${server.url}${API}/reference/quote`,
      {
        method: 'POST',
        headers,
        body: JSON.stringify({
          nationality: 'Nepal',
          ages: [ageOn(traveller.dateOfBirth, departureDate)],
          startDate: departureDate,
          duration: 14,
          routeId,
        }),
      },
      200,
    );
    const order = await call(
      `${server.url}${API}/orders`,
      {
        method: 'POST',
        headers,
        body: JSON.stringify({
          touristId: traveller.touristId,
          ctgId: quote.ctgId,
          routeId,
          departureDate,
          quoteId: quote.quoteId,
        }),
      },
      201,
    );
    await payByCard(server.url, headers, order.orderRef);
    orderRefs.push(order.orderRef);
  }
  return orderRefs;
}

async function main() {
  // No certificate limit here: the bench asks for far more than a partner would.
  const server = await startBenchServer(
    'certificate',
    { RATE_LIMIT_CERTIFICATE_PER_COMPANY: '0', PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' },
    { execArgv: process.env.CERT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(here, 'results')}`] : [] },
  );
  try {
    const [partner] = await createPartners(server.databaseUrl, 1, 'certificate');
    await registerTravellers(server.url, partner, ORDERS);
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    const devanagari = partner.travellers.filter((_, i) => i % 2 === 0).map((t) => t.touristId);
    await db.query('update traveller set name = $1 where id = any($2::uuid[])', [DEVANAGARI_NAME, devanagari]);
    await db.end();
    const orderRefs = await paidOrders(server, partner);

    let next = 0;
    const latencies = [];
    const rss = [];
    const failures = [];
    let bytes = 0;
    const one = async (target, record) => {
      const orderRef = orderRefs[next++ % orderRefs.length];
      const started = performance.now();
      const response = await fetch(
        `${server.url}${API}/orders/${orderRef}${target === 'certificate' ? '/certificate' : ''}`,
        { headers: { authorization: `Bearer ${partner.token}` } },
      );
      const body = Buffer.from(await response.arrayBuffer());
      const ms = performance.now() - started;
      if (response.status !== 200 || (target === 'certificate' && body.subarray(0, 5).toString('latin1') !== '%PDF-'))
        failures.push(`${response.status} ${body.toString('utf8', 0, 200)}`);
      if (!record) return;
      record.latencies.push(ms);
      if (target !== 'certificate') return;
      bytes += body.length;
      if (record.latencies.length % SAMPLE_EVERY === 0)
        rss.push({ after: record.latencies.length, bytes: rssOf(server.pid), heap: heapOf(server.url) });
    };
    /** `count` requests from CONCURRENCY workers; latencies, wall time and server CPU. */
    const run = async (target, count, record) => {
      let issued = 0;
      const cpuBefore = processCpuSeconds(server.pid);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (issued < count) {
            issued++;
            await one(target, record);
          }
        }),
      );
      if (record) {
        record.seconds = (performance.now() - started) / 1000;
        record.cpu = processCpuSeconds(server.pid) - cpuBefore;
      }
    };

    await run('certificate', WARM_UP, undefined);
    await run('detail', WARM_UP, undefined);
    // The same access rule and order loading as JSON: what the service's request path costs without a PDF.
    const detail = { latencies: [] };
    await run('detail', COUNT, detail);
    const baseline = rssOf(server.pid);
    const certificates = { latencies };
    const loadBefore = os.loadavg()[0];
    await run('certificate', COUNT, certificates);
    const loadAfter = os.loadavg()[0];
    const { seconds, cpu } = certificates;

    for (const sample of rss) sample.heap = await sample.heap;
    const sorted = [...latencies].sort((a, b) => a - b);
    const p = (q) => percentile(sorted, q).toFixed(1);
    const detailSorted = [...detail.latencies].sort((a, b) => a - b);
    const dp = (q) => percentile(detailSorted, q).toFixed(1);
    const last = rss[rss.length - 1].bytes;
    const firstSample = rss[0].bytes;
    const report = [
      `Run ${new Date().toISOString()}, Node ${process.version}, ${COUNT} certificates (after ${WARM_UP} to warm up) from ${CONCURRENCY} concurrent requests, ` +
        `round robin over ${ORDERS} paid orders (half with the Devanagari name ${DEVANAGARI_NAME}), server and client on the same 2-core machine, ` +
        `1-minute load average ${loadBefore.toFixed(2)} before and ${loadAfter.toFixed(2)} after (other work on the machine included)`,
      '',
      '| measure | value |',
      '|---|---|',
      `| latency p50 / p90 / p99 / max (ms) | ${p(50)} / ${p(90)} / ${p(99)} / ${sorted[sorted.length - 1].toFixed(1)} |`,
      `| throughput | ${(COUNT / seconds).toFixed(0)} certificates/s |`,
      `| server CPU per certificate | ${((cpu / COUNT) * 1000).toFixed(1)} ms |`,
      `| for comparison, GET /orders/{orderRef} (JSON detail): p50 / p99, server CPU per request | ${dp(50)} / ${dp(99)} ms, ${((detail.cpu / COUNT) * 1000).toFixed(1)} ms |`,
      `| mean PDF size | ${(bytes / COUNT / 1024).toFixed(1)} KiB |`,
      `| failures | ${failures.length}${failures.length ? ` (first: ${failures[0]})` : ''} |`,
      `| RSS after warm-up / after ${rss[0].after} / after ${COUNT} | ${mib(baseline)} / ${mib(firstSample)} / ${mib(last)} MiB |`,
      `| RSS growth from certificate ${rss[0].after} to ${COUNT} / over the second half | ${mib(last - firstSample)} / ${mib(last - rss[Math.floor(rss.length / 2) - 1].bytes)} MiB |`,
      '',
      `RSS every ${SAMPLE_EVERY} certificates (MiB): ${rss.map((sample) => mib(sample.bytes)).join(', ')}`,
      '',
      `V8 heap in use at the same points (MiB): ${rss.map((sample) => mib(sample.heap.heapUsed)).join(', ')}`,
      '',
      `Memory outside the V8 heap (Buffers, zlib) at the same points (MiB): ${rss.map((sample) => mib(sample.heap.external)).join(', ')}`,
      '',
      `p99 under 150 ms -> ${Number(p(99)) < 150 ? 'PASS' : 'FAIL'}; failures -> ${failures.length === 0 ? 'none' : 'SOME'}`,
    ].join('\n');
    console.log(report);
    writeResult('certificate', report);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
