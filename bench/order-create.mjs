// npm run bench:orders: order creation at ORDERS_CONNECTIONS (200) concurrent connections against
// the built server on one PostgreSQL, and authenticated POST /reference/quote at the same number of
// connections in the same run, so the order figure is a ratio to the quote figure (issue 4:
// "no duplicate reference, no deadlock, no 500, throughput as a ratio to POST /reference/quote").
//
// Setup as bench/booking-flow.mjs: ORDERS_PARTNERS companies with credentials (half travel agencies,
// half sales companies) go straight into the database, each uploads documents and registers
// ORDERS_TRAVELLERS travellers over the API. One quote per active route tells which package the
// catalogue sells for it. Then quote for ORDERS_SECONDS, then order for ORDERS_SECONDS; every
// request takes the next partner and traveller round robin. Orders carry no quoteId (touristId,
// ctgId, routeId, departureDate), so every request inserts an order with two fresh references.
//
// Afterwards the database is asked: orders created, distinct order_ref and order_number, malformed
// references, and pg_stat_database.deadlocks of the database before and after.
// Prints a markdown report and writes it to bench/results/order-create.md.
//
// Settings (environment): ORDERS_SECONDS (30), ORDERS_CONNECTIONS (200), ORDERS_PARTNERS (40),
// ORDERS_TRAVELLERS (3 per partner), DATABASE_URL (else a throwaway embedded PostgreSQL).
import autocannon from 'autocannon';
import os from 'node:os';
import { createRequire } from 'node:module';
import { API, call, createPartners, inBatches, registerTravellers, ROUTE_IDS } from './bench-partners.mjs';
import { percentile, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { addDays, ageOn, kathmanduToday } = require('../dist/src/kernel/business-date.js');

const SECONDS = Number(process.env.ORDERS_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.ORDERS_CONNECTIONS ?? 200);
const PARTNERS = Number(process.env.ORDERS_PARTNERS ?? 40);
const TRAVELLERS = Number(process.env.ORDERS_TRAVELLERS ?? 3);

// ---- setup (partners and travellers: bench/bench-partners.mjs) ----

/** The package the catalogue sells for each route, as a quote names it (an order without a quote must name it too). */
async function packagesByRoute(baseUrl, partner, today) {
  const ctgByRoute = {};
  for (const routeId of ROUTE_IDS) {
    const quote = await call(
      `${baseUrl}${API}/reference/quote`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${partner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          nationality: 'Germany',
          ages: [40],
          startDate: addDays(today, 30),
          duration: 10,
          routeId,
        }),
      },
      200,
    );
    ctgByRoute[routeId] = quote.ctgId;
  }
  return ctgByRoute;
}

// ---- measurement ----

/** One request body per call, round robin over partners and their travellers. */
function roundRobin(world, build) {
  return (defaults) => {
    const n = world.next++;
    const partner = world.partners[n % world.partners.length];
    const traveller = partner.travellers[Math.floor(n / world.partners.length) % partner.travellers.length];
    const routeId = ROUTE_IDS[n % ROUTE_IDS.length];
    const departureDate = addDays(world.today, 20 + (n % 60));
    return {
      ...defaults,
      method: 'POST',
      headers: { authorization: `Bearer ${partner.token}`, 'content-type': 'application/json' },
      ...build({ n, partner, traveller, routeId, departureDate }),
    };
  };
}

const quoteRequest = (world) =>
  roundRobin(world, ({ n, traveller, routeId, departureDate }) => ({
    path: `${API}/reference/quote`,
    body: JSON.stringify({
      nationality: 'Germany',
      ages: [ageOn(traveller.dateOfBirth, departureDate)],
      startDate: departureDate,
      duration: 8 + (n % 14),
      routeId,
    }),
  }));

const orderRequest = (world) =>
  roundRobin(world, ({ traveller, routeId, departureDate }) => ({
    path: `${API}/orders`,
    body: JSON.stringify({ touristId: traveller.touristId, ctgId: world.ctgByRoute[routeId], routeId, departureDate }),
  }));

function measure(url, setupRequest, expectedStatus) {
  const latencies = [];
  const statuses = {};
  const samples = [];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 10,
        setupClient(client) {
          client.setRequests([
            {
              setupRequest,
              onResponse(status, body) {
                if (status !== expectedStatus && samples.length < 5)
                  samples.push(`${status} ${String(body).slice(0, 300)}`);
              },
            },
          ]);
          client.on('response', (status, _bytes, duration) => {
            statuses[status] = (statuses[status] ?? 0) + 1;
            latencies.push(duration);
          });
        },
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = latencies.sort((x, y) => x - y);
        resolve({
          count: sorted.length,
          perSecond: sorted.length / SECONDS,
          p50: percentile(sorted, 50),
          p95: percentile(sorted, 95),
          p99: percentile(sorted, 99),
          max: sorted[sorted.length - 1],
          statuses,
          unexpected: sorted.length - (statuses[expectedStatus] ?? 0),
          fiveHundreds: Object.entries(statuses)
            .filter(([s]) => Number(s) >= 500)
            .reduce((sum, [, c]) => sum + c, 0),
          errors: result.errors,
          timeouts: result.timeouts,
          samples,
        });
      },
    );
  });
}

async function deadlocks(client) {
  await client.query('select pg_stat_clear_snapshot()');
  return Number(
    (await client.query('select deadlocks from pg_stat_database where datname = current_database()')).rows[0].deadlocks,
  );
}

async function orderReferences(client) {
  const row = (
    await client.query(`select count(*)::int as orders, count(distinct order_ref)::int as refs, count(distinct order_number)::int as numbers,
      count(*) filter (where order_ref !~ '^ORD-[0-9]{4}-[0-9]+$' or order_number !~ '^ORDN-[0-9]{4}-[0-9]+$')::int as malformed from insurance_order`)
  ).rows[0];
  return row;
}

const ms = (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(1) : x.toFixed(0)) : '-');
const statusList = (statuses) =>
  Object.entries(statuses)
    .map(([s, c]) => `${s}: ${c}`)
    .join(', ');

function report({
  quote,
  order,
  db,
  deadlocksBefore,
  deadlocksAfter,
  uptimeBefore,
  uptimeAfter,
  postgres,
  created201,
}) {
  const duplicates = db.orders - db.refs + (db.orders - db.numbers);
  const lines = [];
  lines.push(
    `Run ${new Date().toISOString()}: ${CONNECTIONS} connections, ${SECONDS} s per target, ${PARTNERS} partners x ${TRAVELLERS} travellers round robin, ` +
      `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, PostgreSQL ${postgres}. ` +
      `uptime before: \`${uptimeBefore}\`; after: \`${uptimeAfter}\`.`,
  );
  lines.push('');
  lines.push(
    '| operation | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | statuses | non-2xx | 5xx | client errors / timeouts |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [label, r] of [
    ['POST /reference/quote', quote],
    ['POST /orders (no quoteId)', order],
  ]) {
    lines.push(
      `| ${label} | ${r.count} | ${r.perSecond.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} | ${statusList(r.statuses)} | ${r.unexpected} | ${r.fiveHundreds} | ${r.errors} / ${r.timeouts} |`,
    );
  }
  lines.push('');
  lines.push('| figure | value |');
  lines.push('|---|---|');
  lines.push(
    `| orders req/s / quote req/s | **${(order.perSecond / quote.perSecond).toFixed(2)}** (${order.perSecond.toFixed(1)} / ${quote.perSecond.toFixed(1)}) |`,
  );
  lines.push(
    `| orders in the database / 201 answers counted | ${db.orders} / ${created201} (the difference: requests in flight when autocannon stopped, at most ${CONNECTIONS}; they commit, their answers are not counted) |`,
  );
  lines.push(`| distinct order_ref / distinct order_number | ${db.refs} / ${db.numbers} |`);
  lines.push(`| duplicate references | ${duplicates} |`);
  lines.push(`| malformed references | ${db.malformed} |`);
  lines.push(`| 500s (both targets) | ${quote.fiveHundreds + order.fiveHundreds} |`);
  lines.push(
    `| deadlocks (pg_stat_database, after - before) | ${deadlocksAfter - deadlocksBefore} (${deadlocksBefore} -> ${deadlocksAfter}) |`,
  );
  for (const [label, r] of [
    ['quote', quote],
    ['order', order],
  ]) {
    if (r.samples.length > 0)
      lines.push(
        '',
        `${label} samples of unexpected answers: ${r.samples.map((e) => `\`${e.replaceAll('`', "'")}\``).join('; ')}`,
      );
  }
  return { text: lines.join('\n'), duplicates };
}

const uptime = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

async function main() {
  const uptimeBefore = `load average ${uptime()}`;
  const server = await startBenchServer('orders');
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const setupStarted = Date.now();
    const today = kathmanduToday();
    const partners = await createPartners(server.databaseUrl, PARTNERS, 'orders');
    await inBatches(partners, 5, (partner) => registerTravellers(server.url, partner, TRAVELLERS));
    const ctgByRoute = await packagesByRoute(server.url, partners[0], today);
    const postgres = (await client.query('show server_version')).rows[0].server_version;
    console.error(
      `setup: ${PARTNERS} partners, ${PARTNERS * TRAVELLERS} travellers in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s; packages ${JSON.stringify(ctgByRoute)}`,
    );

    const ordersBefore = (await orderReferences(client)).orders;
    if (ordersBefore !== 0) throw new Error(`the database holds ${ordersBefore} orders before the run`);
    const deadlocksBefore = await deadlocks(client);

    const quote = await measure(server.url, quoteRequest({ partners, today, next: 0 }), 200);
    console.error(`quote: ${quote.perSecond.toFixed(1)} req/s, p99 ${ms(quote.p99)} ms, ${statusList(quote.statuses)}`);
    const order = await measure(server.url, orderRequest({ partners, today, ctgByRoute, next: 0 }), 201);
    console.error(`order: ${order.perSecond.toFixed(1)} req/s, p99 ${ms(order.p99)} ms, ${statusList(order.statuses)}`);

    // Backends flush their statistics when idle, at the latest after PostgreSQL's 10 s idle interval.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const deadlocksAfter = await deadlocks(client);
    const db = await orderReferences(client);
    const uptimeAfter = `load average ${uptime()}`;
    const { text, duplicates } = report({
      quote,
      order,
      db,
      deadlocksBefore,
      deadlocksAfter,
      uptimeBefore,
      uptimeAfter,
      postgres,
      created201: order.statuses[201] ?? 0,
    });
    console.log(text);
    writeResult('order-create', text);
    const failed =
      duplicates > 0 ||
      db.malformed > 0 ||
      deadlocksAfter > deadlocksBefore ||
      quote.fiveHundreds + order.fiveHundreds > 0 ||
      db.orders < (order.statuses[201] ?? 0) ||
      db.orders > (order.statuses[201] ?? 0) + CONNECTIONS + order.timeouts + order.errors;
    if (failed) process.exitCode = 1;
  } finally {
    await client.end();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
