// npm run bench:claims: filing a claim with three items and three documents
// (POST /orders/{orderRef}/claims) at CLAIM_PARTNERS (20) concurrent partners against the built
// server on its own PostgreSQL, and authenticated POST /reference/quote at the same concurrency in
// the same run as the baseline (issue 48: "p95 < 150 ms and within 3x the quote's p95 in the same
// run").
//
// Setup: CLAIM_PARTNERS companies with credentials go straight into the database, each registers
// one traveller and places one order over the API; the order is then marked PAID in the database
// with a cover window around today (the payment flow is not what is measured). Measurement:
// CLAIM_ROUNDS interleaved rounds of CLAIM_SECONDS each, quote round then claim round, so that
// outside load hits both alike. In a claim round each partner loops: three claim documents
// (INVOICE, RECEIPT, MEDICAL_REPORT) written straight into the database as if uploaded, the claim
// filed with one on each of its three items (USD, NPR, INR; timed), then the claim marked
// WITHDRAWN in the database so that the order's standing claims stay few (not through the server,
// whose CPU the filings are measured on). Each filing carries a fresh Idempotency-Key and fresh
// invoice numbers, so every one inserts a claim with its items, documents, timeline entry, audit
// entry and one event per reader.
//
// Prints a markdown report and writes it to bench/results/claims-file.md; exits 1 on any answer
// other than the expected one.
//
// Settings (environment): CLAIM_PARTNERS (20), CLAIM_SECONDS (10), CLAIM_ROUNDS (3), CLAIM_PROFILE=1
// (a V8 CPU profile of the server in bench/results/, read by bench/profile-summary.mjs), DATABASE_URL
// (else a throwaway embedded PostgreSQL).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { API, call, createPartners, inBatches, registerTravellers, ROUTE_IDS } from './bench-partners.mjs';
import { here, percentile, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { addDays, ageOn, kathmanduToday } = require('../dist/src/kernel/business-date.js');

const PARTNERS = Number(process.env.CLAIM_PARTNERS ?? 20);
const SECONDS = Number(process.env.CLAIM_SECONDS ?? 10);
const ROUNDS = Number(process.env.CLAIM_ROUNDS ?? 3);

/** The claim's body: three invoices of the Khumbu trip, each with one document. */
function claimBody(today, documentIds) {
  const tag = randomUUID().slice(0, 8);
  return JSON.stringify({
    claimType: 'MEDICAL_EXPENSES',
    incidentDate: today,
    incidentDescription: 'Acute mountain sickness at Dingboche, treated at Pheriche, flown to Kathmandu',
    location: 'Pheriche',
    altitudeMeters: 4371,
    payee: { type: 'TRAVELLER', method: 'KHALTI', accountName: 'Sophie Keller', accountNumber: '9841234567' },
    items: [
      {
        description: 'Treatment and oxygen',
        amount: 420,
        currency: 'USD',
        invoiceNumber: `PAP-${tag}`,
        providerName: 'Pheriche Aid Post',
        documentIds: [documentIds[0]],
      },
      {
        description: 'Two nights at CIWEC Hospital',
        amount: 185000,
        currency: 'NPR',
        invoiceNumber: `CIW-${tag}`,
        providerName: 'CIWEC Hospital',
        documentIds: [documentIds[1]],
      },
      {
        description: 'Medicines',
        amount: 12500,
        currency: 'INR',
        invoiceNumber: `MED-${tag}`,
        providerName: 'Thamel Pharmacy',
        documentIds: [documentIds[2]],
      },
    ],
  });
}

const CLAIM_DOCUMENTS = ['INVOICE', 'RECEIPT', 'MEDICAL_REPORT'];

/** Three claim documents of the partner's company, as if uploaded (the upload is not what is measured). */
async function documentsOf(db, partner) {
  const ids = CLAIM_DOCUMENTS.map(() => randomUUID());
  await db.query(
    `insert into document (id, company_id, document_type, file_name, file_size, content_type, storage_key, sha256, uploaded_at)
     select id, $1, type, 'scan.pdf', 1024, 'application/pdf', 'bench/' || id, md5(id::text), now()
       from unnest($2::uuid[], $3::text[]) as t(id, type)`,
    [partner.companyId, ids, CLAIM_DOCUMENTS],
  );
  return ids;
}

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
      // Paid, and covering today: the incident of every claim is today (Nepal).
      await db.query(
        `update insurance_order set status = 'PAID', paid_at = now(), coverage_start_date = $2::date - 2, coverage_end_date = $2::date + 7 where id = $1`,
        [order.orderId, today],
      );
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

const claimStep = (baseUrl, db, today) => async (partner, latencies, unexpected) => {
  const documentIds = await documentsOf(db, partner);
  const filed = await timed(`${baseUrl}${API}/orders/${partner.orderRef}/claims`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${partner.token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: claimBody(today, documentIds),
  });
  if (filed.status !== 201) {
    unexpected.push(`file ${filed.status} ${JSON.stringify(filed.body).slice(0, 200)}`);
    return;
  }
  latencies.push(filed.ms);
  await db.query(`update claim set status = 'WITHDRAWN', withdrawal_reason = 'benchmark' where claim_ref = $1`, [
    filed.body.data.claimRef,
  ]);
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
    'claims',
    {},
    { execArgv: process.env.CLAIM_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(here, 'results')}`] : [] },
  );
  try {
    const today = kathmanduToday();
    const partners = await createPartners(server.databaseUrl, PARTNERS, 'claims');
    await inBatches(partners, 5, (partner) => registerTravellers(server.url, partner, 1));
    await paidOrders(server.url, server.databaseUrl, partners, today);
    db = new pg.Pool({ connectionString: server.databaseUrl, max: PARTNERS });

    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      const quote = await round(partners, quoteStep(server.url, today));
      const open = await round(partners, claimStep(server.url, db, today));
      rounds.push({ quote, open });
      console.error(
        `round ${r + 1}: quote p95 ${ms(stats(quote.latencies).p95)} ms, claim p95 ${ms(stats(open.latencies).p95)} ms`,
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
      `| POST /orders/{orderRef}/claims (3 items, 3 documents) | ${open.count} | ${ms(open.p50)} | ${ms(open.p95)} | ${ms(open.p99)} | ${ms(open.max)} |`,
      '',
      `| figure | value |`,
      `|---|---|`,
      `| claim p95 / quote p95 | **${(open.p95 / quote.p95).toFixed(2)}** (target < 3) |`,
      `| claim p95 | **${ms(open.p95)} ms** (target < 150 ms) |`,
      ...rounds.map(
        (x, i) =>
          `| round ${i + 1} p95: quote / claim | ${ms(stats(x.quote.latencies).p95)} / ${ms(stats(x.open.latencies).p95)} ms |`,
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
    writeResult('claims-file', text);
    if (unexpected.length > 0) process.exitCode = 1;
  } finally {
    await db?.end();
    await server.stop();
  }
}

await main();
