// A commission statement of a company with 50,000 paid orders in one Nepal month (issue 38): the
// JSON statement (totals and a page of lines; p50/p95), the CSV of every line (lines/s, server RSS
// growth) and the printable PDF (seconds to the last byte). Seeds the orders and their EARNED
// lines (one in ten also REVERSED) with SQL in a bench database, then measures over HTTP. The
// baselines, measured in the same run on the same rows: GET /orders' first page (the order book,
// the same company) for the JSON, and the order book's CSV export of the same 50,000 orders for
// the CSV.
// Run: npm run bench:commission   (BENCH_ORDERS, BENCH_REQUESTS to change the sizes)
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { percentile, startBenchServer, writeResult } from './support.mjs';

const COUNT = Number(process.env.BENCH_ORDERS ?? 50_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const PERIOD_START = '2026-10-01T00:00:00+05:45';
const PERIOD = '2026-10';

async function withClient(databaseUrl, work) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** COUNT paid orders of the company spread over October 2026 (Nepal), each with its seller's EARNED line; every tenth also REVERSED in full. */
async function seed(databaseUrl, companyId) {
  return withClient(databaseUrl, async (client) => {
    const started = performance.now();
    await client.query(`set session_replication_role = replica`);
    const {
      rows: [ctg],
    } = await client.query(`select id from ctg order by code limit 1`);
    await client.query(
      `
      insert into traveller (id, company_id, email, name, date_of_birth, nationality, id_type, id_number, gender, phone,
        emergency_contact_name, emergency_contact_phone, emergency_contact_email, emergency_contact_relation,
        avatar_document_id, passport_document_id, signature_document_id, created_at)
      values (md5('ct')::uuid, $1, 'traveller@example.com', 'Pasang Sherpa', date '1990-01-01', 'Nepal', 'PASSPORT', 'P1', 'MALE', '+977 1 4000000',
        'Contact', '+977 1 4000001', 'contact@example.com', 'Sibling', md5('ca')::uuid, md5('cp')::uuid, md5('cs')::uuid, now())`,
      [companyId],
    );
    await client.query(
      `
      insert into insurance_order (id, order_ref, order_number, company_id, status, settlement_type, traveller_id, ctg_id,
        custom_route_name, departure_date, coverage_start_date, coverage_end_date, duration_days, custom_travel_agencies,
        currency, package_price, included_devices, excluded_included_device_ids, total_amount, paid_at, policy_number,
        payment_status, version, created_at, updated_at)
      select md5('co' || i)::uuid, 'ORD-2026-' || lpad(i::text, 7, '0'), 'ORDN-2026-' || lpad(i::text, 7, '0'), $1, 'PAID', 'ONLINE',
        md5('ct')::uuid, $2::uuid, 'Manaslu circuit', date '2026-12-01', date '2026-12-01', date '2026-12-14', 14, '[]',
        'NPR', 4500 + (i % 100) * 10, '[]', '[]', 4500 + (i % 100) * 10, at, 'POL-2026-' || lpad(i::text, 7, '0'), 'SUCCESS', 1, at, at
      from generate_series(1, ${COUNT}) i, lateral (select timestamptz '${PERIOD_START}' + make_interval(secs => i * (2592000 / ${COUNT + 1})) as at) t`,
      [companyId, ctg.id],
    );
    await client.query(
      `
      insert into commission_entry (id, kind, company_id, role, order_id, policy_number, payment_ref, currency, share, base, percent, cap_percent, capped, amount, occurred_at, period, created_at)
      select md5('ce' || i)::uuid, 'EARNED', $1, 'SELLER', md5('co' || i)::uuid, 'POL-2026-' || lpad(i::text, 7, '0'), 'ORD-2026-' || lpad(i::text, 7, '0') || '-1790000000000',
        'NPR', 4500 + (i % 100) * 10, 4500 + (i % 100) * 10, 10, 35, false, (4500 + (i % 100) * 10) / 10, at, '${PERIOD}', at
      from generate_series(1, ${COUNT}) i, lateral (select timestamptz '${PERIOD_START}' + make_interval(secs => i * (2592000 / ${COUNT + 1})) as at) t`,
      [companyId],
    );
    await client.query(
      `
      insert into commission_entry (id, kind, company_id, role, order_id, policy_number, payment_ref, refund_ref, currency, share, base, percent, cap_percent, capped, amount, refunded, occurred_at, period, created_at)
      select md5('cr' || i)::uuid, 'REVERSED', $1, 'SELLER', md5('co' || i)::uuid, 'POL-2026-' || lpad(i::text, 7, '0'), 'ORD-2026-' || lpad(i::text, 7, '0') || '-1790000000000',
        'RFD-2026-' || lpad(i::text, 7, '0'), 'NPR', 4500 + (i % 100) * 10, 4500 + (i % 100) * 10, 10, 35, false, -(4500 + (i % 100) * 10) / 10, 4500 + (i % 100) * 10,
        at + interval '1 hour', '${PERIOD}', at
      from generate_series(10, ${COUNT}, 10) i, lateral (select timestamptz '${PERIOD_START}' + make_interval(secs => i * (2592000 / ${COUNT + 1})) as at) t`,
      [companyId],
    );
    await client.query(`set session_replication_role = origin`);
    await client.query(`insert into order_status_count (company_id, status, payment_status, orders)
      select company_id, status, payment_status, count(*) from insurance_order group by company_id, status, payment_status
      on conflict (company_id, status, payment_status) do update set orders = excluded.orders`);
    for (const table of ['insurance_order', 'commission_entry']) await client.query(`vacuum analyze ${table}`);
    const {
      rows: [lines],
    } = await client.query(
      `select count(*)::int as n from commission_entry where company_id = $1 and period = '${PERIOD}'`,
      [companyId],
    );
    console.log(
      `seeded ${COUNT.toLocaleString('en')} orders and ${lines.n.toLocaleString('en')} commission lines in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return lines.n;
  });
}

async function latencies(server, path, check) {
  const times = [];
  for (let n = 0; n < REQUESTS; n++) {
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: server.authorization } });
    const body = await response.json();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    check?.(body);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] };
}

function rssMiB(pid) {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Reads a download to its end while sampling the server's RSS. */
async function download(server, path, accept) {
  const before = rssMiB(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(server.pid));
  }, 20);
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: server.authorization, accept } });
  if (response.status !== 200) throw new Error(`${path} ${accept}: ${response.status} ${await response.text()}`);
  let lines = 0;
  let bytes = 0;
  let head = '';
  for await (const chunk of response.body) {
    bytes += chunk.length;
    if (head.length < 8) head += Buffer.from(chunk).subarray(0, 8).toString('latin1');
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(server.pid));
  return {
    rows: lines - 1,
    seconds,
    rate: (lines - 1) / seconds,
    mib: bytes / 1048576,
    rssBefore: before,
    rssPeak: peak,
    head,
  };
}

async function main() {
  const server = await startBenchServer('commission');
  const load = () => os.loadavg()[0].toFixed(2);
  try {
    const lines = await seed(server.databaseUrl, server.companyId);
    const loadBefore = load();
    const statementPath = `/api/external/v1/commission-statements/${PERIOD}`;
    // Warm-up: both paths, so neither pays the first query's planning or the first PDF's font load.
    await latencies({ ...server }, `${statementPath}?page=10`);
    await latencies({ ...server }, '/api/external/v1/orders');
    await download(server, statementPath, 'application/pdf');
    const json = await latencies(server, `${statementPath}?page=10`, (body) => {
      if (body.data.lineCount !== lines) throw new Error(`lineCount ${body.data.lineCount}, expected ${lines}`);
    });
    const baselineJson = await latencies(server, '/api/external/v1/orders');
    const csv = await download(server, statementPath, 'text/csv');
    if (csv.rows !== lines) throw new Error(`CSV has ${csv.rows} lines, expected ${lines}`);
    const baselineCsv = await download(server, '/api/external/v1/orders', 'text/csv');
    const pdf = await download(server, statementPath, 'application/pdf');
    if (!pdf.head.startsWith('%PDF-')) throw new Error('the PDF does not start with %PDF-');
    const loadAfter = load();
    const report = [
      `Run ${new Date().toISOString()}, Node ${process.version}, ${COUNT.toLocaleString('en')} paid orders of one company in ${PERIOD}, ${lines.toLocaleString('en')} commission lines (every tenth order also REVERSED); ${REQUESTS} sequential requests per JSON row, over HTTP (auth, validation, envelope included); load average ${loadBefore} before, ${loadAfter} after`,
      '',
      '| measure | statement | baseline in the same run | ratio | target |',
      '|---|---|---|---|---|',
      `| JSON p95 (totals + page 10 of 20 lines) | ${json.p95.toFixed(1)} ms (p50 ${json.p50.toFixed(1)}, max ${json.max.toFixed(1)}) | GET /orders first page p95 ${baselineJson.p95.toFixed(1)} ms | ${(json.p95 / baselineJson.p95).toFixed(2)} × | < 300 ms |`,
      `| CSV lines/s (every line) | ${Math.round(csv.rate).toLocaleString('en')} (${csv.rows.toLocaleString('en')} lines, ${csv.mib.toFixed(1)} MiB in ${csv.seconds.toFixed(2)} s) | order book CSV ${Math.round(baselineCsv.rate).toLocaleString('en')} rows/s (${baselineCsv.rows.toLocaleString('en')} rows) | ${(csv.rate / baselineCsv.rate).toFixed(2)} × | ≥ 20,000 |`,
      `| CSV server RSS growth | ${(csv.rssPeak - csv.rssBefore).toFixed(1)} MiB (${csv.rssBefore.toFixed(1)} -> ${csv.rssPeak.toFixed(1)}) | order book CSV ${(baselineCsv.rssPeak - baselineCsv.rssBefore).toFixed(1)} MiB | — | flat |`,
      `| PDF to the last byte | ${pdf.seconds.toFixed(2)} s (${pdf.mib.toFixed(1)} MiB) | — | — | < 5 s |`,
      `| PDF server RSS growth | ${(pdf.rssPeak - pdf.rssBefore).toFixed(1)} MiB (${pdf.rssBefore.toFixed(1)} -> ${pdf.rssPeak.toFixed(1)}) | — | — | — |`,
    ].join('\n');
    console.log(report);
    writeResult('commission-statement', report);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
