// Extension preview under load (issue 49): POST /orders/{orderRef}/extension/preview against
// POST /reference/quote in the same run, from EXT_PARTNERS partners at once (default 20), each
// with one paid order (sandbox card checkout). Target: the preview's p95 within 2x the quote's.
// The machine is shared, so the two are measured in interleaved rounds (quote, preview, quote,
// preview, ...), EXT_ROUNDS of EXT_REQUESTS requests per partner each, and the p95 is over all
// rounds' latencies; the 1-minute load average before and after is reported beside it.
// Run: npm run bench:extension
import os from 'node:os';
import { createRequire } from 'node:module';
import { API, call, createPartners, payByCard, inBatches, registerTravellers, ROUTE_IDS } from './bench-partners.mjs';
import { percentile, processCpuSeconds, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const { addDays, ageOn, kathmanduToday } = require('../dist/src/kernel/business-date.js');

const PARTNERS = Number(process.env.EXT_PARTNERS ?? 20);
const ROUNDS = Number(process.env.EXT_ROUNDS ?? 5);
const REQUESTS = Number(process.env.EXT_REQUESTS ?? 20);
const WARM_UP = 5;

const departureDate = addDays(kathmanduToday(), 30);
const jsonHeaders = (partner) => ({ authorization: `Bearer ${partner.token}`, 'content-type': 'application/json' });
const quoteBody = (partner) =>
  JSON.stringify({
    nationality: 'Nepal',
    ages: [ageOn(partner.travellers[0].dateOfBirth, departureDate)],
    startDate: departureDate,
    duration: 14,
    routeId: ROUTE_IDS[0],
  });

/** One paid order for the partner's traveller: quote, order, sandbox card checkout, callback. */
async function paidOrder(server, partner) {
  const headers = jsonHeaders(partner);
  const quote = await call(
    `${server.url}${API}/reference/quote`,
    { method: 'POST', headers, body: quoteBody(partner) },
    200,
  );
  const order = await call(
    `${server.url}${API}/orders`,
    {
      method: 'POST',
      headers,
      body: JSON.stringify({
        touristId: partner.travellers[0].touristId,
        ctgId: quote.ctgId,
        routeId: ROUTE_IDS[0],
        departureDate,
        quoteId: quote.quoteId,
      }),
    },
    201,
  );
  await payByCard(server.url, headers, order.orderRef);
  return order.orderRef;
}

async function main() {
  // No rate limit here: the bench asks for far more than a partner would.
  const server = await startBenchServer('extension', {
    RATE_LIMIT_QUOTE_PER_COMPANY: '0',
    RATE_LIMIT_PAY_PER_COMPANY: '0',
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
  });
  try {
    const partners = await createPartners(server.databaseUrl, PARTNERS, 'extension');
    await inBatches(partners, 5, (partner) => registerTravellers(server.url, partner, 1));
    await inBatches(partners, 5, async (partner) => {
      partner.orderRef = await paidOrder(server, partner);
    });

    const failures = [];
    const request = {
      quote: (partner) => ({
        url: `${server.url}${API}/reference/quote`,
        body: quoteBody(partner),
      }),
      preview: (partner) => ({
        url: `${server.url}${API}/orders/${partner.orderRef}/extension/preview`,
        body: JSON.stringify({ extraDays: 3 }),
      }),
    };
    /** Every partner sends `count` requests of `kind` one after another, all partners at once. */
    const run = async (kind, count, latencies) => {
      await Promise.all(
        partners.map(async (partner) => {
          for (let i = 0; i < count; i++) {
            const { url, body } = request[kind](partner);
            const started = performance.now();
            const response = await fetch(url, { method: 'POST', headers: jsonHeaders(partner), body });
            const text = await response.text();
            if (latencies) latencies.push(performance.now() - started);
            if (response.status !== 200) failures.push(`${kind} ${response.status} ${text.slice(0, 200)}`);
          }
        }),
      );
    };

    await run('quote', WARM_UP);
    await run('preview', WARM_UP);
    const latencies = { quote: [], preview: [] };
    const cpu = { quote: 0, preview: 0 };
    const loadBefore = os.loadavg()[0];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ['quote', 'preview']) {
        const before = processCpuSeconds(server.pid);
        await run(kind, REQUESTS, latencies[kind]);
        cpu[kind] += processCpuSeconds(server.pid) - before;
      }
      console.error(`round ${round}/${ROUNDS} done`);
    }
    const loadAfter = os.loadavg()[0];

    const stats = (kind) => {
      const sorted = [...latencies[kind]].sort((a, b) => a - b);
      return {
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        cpuMs: (cpu[kind] / sorted.length) * 1000,
        count: sorted.length,
      };
    };
    const quote = stats('quote');
    const preview = stats('preview');
    const ratio = preview.p95 / quote.p95;
    const row = (title, s) =>
      `| ${title} | ${s.count} | ${s.p50.toFixed(1)} / ${s.p95.toFixed(1)} / ${s.p99.toFixed(1)} | ${s.cpuMs.toFixed(2)} |`;
    const report = [
      `Run ${new Date().toISOString()}, Node ${process.version}, ${PARTNERS} partners at once (one paid order each), ` +
        `${ROUNDS} interleaved rounds of ${REQUESTS} requests per partner per target (after ${WARM_UP} to warm up), ` +
        `server, PostgreSQL and client on the same 2-core machine, 1-minute load average ${loadBefore.toFixed(2)} before and ` +
        `${loadAfter.toFixed(2)} after (other work on the machine included)`,
      '',
      '| target | requests | latency p50 / p95 / p99 (ms) | server CPU per request (ms) |',
      '|---|---|---|---|',
      row('POST /reference/quote', quote),
      row('POST /orders/{orderRef}/extension/preview', preview),
      '',
      `preview p95 / quote p95 = ${ratio.toFixed(2)} (target at most 2) -> ${ratio <= 2 ? 'PASS' : 'FAIL'}; ` +
        `failures -> ${failures.length === 0 ? 'none' : `${failures.length} (first: ${failures[0]})`}`,
    ].join('\n');
    console.log(report);
    writeResult('extension', report);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
