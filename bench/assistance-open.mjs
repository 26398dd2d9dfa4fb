// npm run bench:assistance: opening an assistance case (POST /orders/{orderRef}/assistance-cases)
// at ASSIST_PARTNERS (20) concurrent partners against the built server on its own PostgreSQL, and
// authenticated POST /reference/quote at the same concurrency in the same run as the baseline
// (issue 39: "opening a case, p95 < 100 ms at 20 concurrent partners").
//
// Setup: ASSIST_PARTNERS companies with credentials go straight into the database, each registers
// one traveller and places one order over the API; the order is then marked PAID in the database
// (the payment flow is not what is measured). Measurement: ASSIST_ROUNDS interleaved rounds of
// ASSIST_SECONDS each, quote round then case round, so that outside load hits both alike. In a case
// round each partner loops: open a case on its order (timed), then free the traveller's one open
// slot straight in the database (not through the server, whose CPU the opens are measured on: a
// withdrawal through the API costs about as much as an open and would double the load). Each open
// carries a fresh Idempotency-Key, so every one inserts a case with its reference, timeline entry,
// audit entry and one event per reader.
//
// Prints a markdown report and writes it to bench/results/assistance-open.md; exits 1 on any
// answer other than the expected one.
//
// Settings (environment): ASSIST_PARTNERS (20), ASSIST_SECONDS (10), ASSIST_ROUNDS (3),
// ASSIST_PROFILE=1 (a CPU profile of the server in bench/results/), DATABASE_URL (else a
// throwaway embedded PostgreSQL).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { createRequire } from 'node:module';
import { API, call, createPartners, inBatches, registerTravellers, ROUTE_IDS } from './bench-partners.mjs';
import path from 'node:path';
import { here, percentile, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { addDays, ageOn, kathmanduToday } = require('../dist/src/kernel/business-date.js');

const PARTNERS = Number(process.env.ASSIST_PARTNERS ?? 20);
const SECONDS = Number(process.env.ASSIST_SECONDS ?? 10);
const ROUNDS = Number(process.env.ASSIST_ROUNDS ?? 3);

const CASE = JSON.stringify({
  category: 'ALTITUDE_SICKNESS',
  requestedService: 'HELICOPTER_EVACUATION',
  location: { latitude: 27.9881, longitude: 86.925, placeName: 'Gorak Shep lodge, Everest Base Camp trek' },
  altitudeMeters: 5164,
  summary: 'Severe headache and vomiting since last night; suspected HACE. Cannot walk down.',
  reporter: { name: 'Pemba Sherpa', phone: '+977 9841 234567', role: 'GUIDE' },
  proposedOperator: 'Simrik Air',
});

/** One paid order per partner, for its one traveller. */
async function paidOrders(baseUrl, databaseUrl, partners, today) {
  const departureDate = addDays(today, 20);
  // A pool: the batches below update orders five at a time.
  const db = new pg.Pool({ connectionString: databaseUrl, max: 5 });
  try {
    await inBatches(partners, 5, async (partner) => {
      const traveller = partner.travellers[0];
      const headers = { authorization: `Bearer ${partner.token}`, 'content-type': 'application/json' };
      const quote = await call(
        `${baseUrl}${API}/reference/quote`,
        {
          method: 'POST',
          headers,
          body: JSON.stringify({
            nationality: 'Germany',
            ages: [ageOn(traveller.dateOfBirth, departureDate)],
            startDate: departureDate,
            duration: 10,
            routeId: ROUTE_IDS[0],
          }),
        },
        200,
      );
      const order = await call(
        `${baseUrl}${API}/orders`,
        {
          method: 'POST',
          headers,
          body: JSON.stringify({
            touristId: traveller.touristId,
            quoteId: quote.quoteId,
            ctgId: quote.ctgId,
            routeId: ROUTE_IDS[0],
            departureDate,
          }),
        },
        201,
      );
      await db.query(`update insurance_order set status = 'PAID', paid_at = now() where id = $1`, [order.orderId]);
      partner.orderRef = order.orderRef;
    });
  } finally {
    await db.end();
  }
}

async function timed(url, init) {
  const started = performance.now();
  const response = await fetch(url, init);
  const body = await response.json();
  return { status: response.status, body, ms: performance.now() - started };
}

/** Every partner sends `step` again and again for SECONDS; answers the latencies of the timed requests and any unexpected answer. */
async function round(partners, step) {
  const latencies = [];
  const unexpected = [];
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    partners.map(async (partner) => {
      while (Date.now() < until) await step(partner, latencies, unexpected);
    }),
  );
  return { latencies, unexpected };
}

const quoteStep = (baseUrl, today) => async (partner, latencies, unexpected) => {
  const traveller = partner.travellers[0];
  const startDate = addDays(today, 20);
  const answer = await timed(`${baseUrl}${API}/reference/quote`, {
    method: 'POST',
    headers: { authorization: `Bearer ${partner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      nationality: 'Germany',
      ages: [ageOn(traveller.dateOfBirth, startDate)],
      startDate,
      duration: 10,
      routeId: ROUTE_IDS[0],
    }),
  });
  if (answer.status === 200) latencies.push(answer.ms);
  else unexpected.push(`quote ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
};

const caseStep = (baseUrl, db) => async (partner, latencies, unexpected) => {
  const opened = await timed(`${baseUrl}${API}/orders/${partner.orderRef}/assistance-cases`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${partner.token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: CASE,
  });
  if (opened.status !== 201) {
    unexpected.push(`open ${opened.status} ${JSON.stringify(opened.body).slice(0, 200)}`);
    return;
  }
  latencies.push(opened.ms);
  await db.query(
    `update assistance_case set status = 'WITHDRAWN', withdrawal_reason = 'benchmark' where case_ref = $1`,
    [opened.body.data.caseRef],
  );
};

const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const stats = (latencies) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
};
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

async function main() {
  let db;
  const loadBefore = load();
  const server = await startBenchServer(
    'assistance',
    {},
    { execArgv: process.env.ASSIST_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(here, 'results')}`] : [] },
  );
  try {
    const today = kathmanduToday();
    const partners = await createPartners(server.databaseUrl, PARTNERS, 'assistance');
    await inBatches(partners, 5, (partner) => registerTravellers(server.url, partner, 1));
    await paidOrders(server.url, server.databaseUrl, partners, today);
    db = new pg.Pool({ connectionString: server.databaseUrl, max: PARTNERS });

    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      const quote = await round(partners, quoteStep(server.url, today));
      const open = await round(partners, caseStep(server.url, db));
      rounds.push({ quote, open });
      console.error(
        `round ${r + 1}: quote p95 ${ms(stats(quote.latencies).p95)} ms, open p95 ${ms(stats(open.latencies).p95)} ms`,
      );
    }
    const all = (kind) => rounds.flatMap((x) => x[kind].latencies);
    const unexpected = rounds.flatMap((x) => [...x.quote.unexpected, ...x.open.unexpected]);
    const quote = stats(all('quote'));
    const open = stats(all('open'));
    const lines = [
      `Run ${new Date().toISOString()}: ${PARTNERS} concurrent partners, ${ROUNDS} interleaved rounds of ${SECONDS} s per target, ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average before ${loadBefore}, after ${load()}.`,
      '',
      '| operation | requests | p50 ms | p95 ms | p99 ms | max ms |',
      '|---|---|---|---|---|---|',
      `| POST /reference/quote (baseline) | ${quote.count} | ${ms(quote.p50)} | ${ms(quote.p95)} | ${ms(quote.p99)} | ${ms(quote.max)} |`,
      `| POST /orders/{orderRef}/assistance-cases | ${open.count} | ${ms(open.p50)} | ${ms(open.p95)} | ${ms(open.p99)} | ${ms(open.max)} |`,
      '',
      `| figure | value |`,
      `|---|---|`,
      `| open p95 / quote p95 | **${(open.p95 / quote.p95).toFixed(2)}** |`,
      `| open p95 | **${ms(open.p95)} ms** (target < 100 ms) |`,
      ...rounds.map(
        (x, i) =>
          `| round ${i + 1} p95: quote / open | ${ms(stats(x.quote.latencies).p95)} / ${ms(stats(x.open.latencies).p95)} ms |`,
      ),
      `| unexpected answers | ${unexpected.length}${
        unexpected.length
          ? `: ${unexpected
              .slice(0, 3)
              .map((u) => `\`${u}\``)
              .join('; ')}`
          : ''
      } |`,
    ];
    const text = lines.join('\n');
    console.log(text);
    writeResult('assistance-open', text);
    if (unexpected.length > 0) process.exitCode = 1;
  } finally {
    await db?.end();
    await server.stop();
  }
}

await main();
