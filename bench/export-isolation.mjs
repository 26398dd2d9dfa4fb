// npm run bench:export-isolation: POST /auth/token and GET /orders/{orderRef} latencies, first
// unloaded (the baseline, same run) and then while 10 CSV exports of a large order book stay open
// with clients that never read. Issue 40's figure: both p99 stay under 2x their unloaded p99.
// Ten exports of one company with EXPORTS_PER_COMPANY=10 (the worst case for the export pool:
// 4 hold its connections, the rest wait and are refused) and the stall cut far off (600 s), so
// the exports stay open while the latencies are measured.
import net from 'node:net';
import pg from 'pg';
import { percentile, startBenchServer, writeResult } from './support.mjs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DEMO_PARTNERS } = require('../dist/src/modules/partners/demo-partners.js');
const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const EXPORTS = 10;

const server = await startBenchServer('export-isolation', {
  PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
  EXPORTS_PER_COMPANY: String(EXPORTS),
  HTTP_STREAM_STALL_SECONDS: '600',
  RATE_LIMIT_TOKEN_PER_CLIENT: '0',
  RATE_LIMIT_TOKEN_PER_ADDRESS: '0',
});
const db = new pg.Client({ connectionString: server.databaseUrl });
await db.connect();

// The order book: ORDERS orders of the demo company, each with a 2,000-character custom route
// name, so the CSV (about 45 MB) is far more than socket buffers take in.
await db.query(`set session_replication_role = replica`);
const {
  rows: [ctg],
} = await db.query(`select id from ctg order by code limit 1`);
await db.query(
  `insert into traveller (id, company_id, email, name, date_of_birth, nationality, id_type, id_number, gender, phone,
    emergency_contact_name, emergency_contact_phone, emergency_contact_email, emergency_contact_relation, avatar_document_id, passport_document_id, signature_document_id, created_at)
  values (md5('export-bench')::uuid, $1, 'bench@example.com', 'Sophie Keller', '1991-03-14', 'Germany', 'PASSPORT', 'C4R7T2K91', 'FEMALE', '+49 30 1234567',
    'Markus Keller', '+49 30 7654321', 'markus@example.com', 'Brother', md5('a')::uuid, md5('p')::uuid, md5('s')::uuid, now())`,
  [server.companyId],
);
await db.query(
  `insert into insurance_order (id, order_ref, order_number, company_id, status, settlement_type, traveller_id, ctg_id, custom_route_name,
    departure_date, coverage_start_date, coverage_end_date, duration_days, custom_travel_agencies, currency, package_price, included_devices,
    excluded_included_device_ids, total_amount, payment_status, version, created_at, updated_at)
  select md5('eo' || i)::uuid, 'ORD-2026-' || lpad(i::text, 7, '0'), 'ORDN-2026-' || lpad(i::text, 7, '0'), $1, 'PENDING', 'ONLINE',
    md5('export-bench')::uuid, $2, rpad('Annapurna circuit ', 2000, 'and back '), current_date + 30, current_date + 30, current_date + 36, 7, '[]',
    'NPR', 4500, '[]', '[]', 4500, 'NOT_INITIATED', 1, now() - make_interval(secs => i), now()
  from generate_series(1, ${ORDERS}) i`,
  [server.companyId, ctg.id],
);
await db.query(
  `insert into order_travel_company (order_id, company_id, position, placer, order_created_at)
  select md5('eo' || i)::uuid, $1, 0, true, now() - make_interval(secs => i) from generate_series(1, ${ORDERS}) i`,
  [server.companyId],
);
await db.query(`set session_replication_role = origin`);
await db.query(
  `insert into order_status_count (company_id, status, payment_status, orders) values ($1, 'PENDING', 'NOT_INITIATED', $2)
  on conflict (company_id, status, payment_status) do update set orders = excluded.orders`,
  [server.companyId, ORDERS],
);
await db.query('vacuum analyze insurance_order');

const demo = DEMO_PARTNERS[0];
const calls = {
  'POST /auth/token': () =>
    fetch(`${server.url}/api/external/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: demo.clientId, clientSecret: demo.clientSecret }),
    }),
  'GET /orders/{orderRef}': () =>
    fetch(`${server.url}/api/external/v1/orders/ORD-2026-0000001`, {
      headers: { authorization: server.authorization },
    }),
};

/** p50/p99 of REQUESTS sequential calls of each operation, in ms. */
async function latencies() {
  const result = {};
  for (const [name, call] of Object.entries(calls)) {
    const times = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      const response = await call();
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${name} answered ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    result[name] = { p50: Number(percentile(times, 50).toFixed(1)), p99: Number(percentile(times, 99).toFixed(1)) };
  }
  return result;
}

/** A CSV export whose client sends the request and never reads a byte. */
function unreadExport() {
  const socket = net.connect(new URL(server.url).port, '127.0.0.1');
  socket.write(
    `GET /api/external/v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/csv\r\nAuthorization: ${server.authorization}\r\n\r\n`,
  );
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

await latencies(); // warm-up
const unloaded = await latencies();
const sockets = Array.from({ length: EXPORTS }, unreadExport);
await new Promise((resolve) => setTimeout(resolve, 4000));
const {
  rows: [held],
} = await db.query(
  `select count(*)::int as n from pg_stat_activity where application_name = 'streamed-answers' and state like 'idle in transaction%'`,
);
const loaded = await latencies();
for (const socket of sockets) socket.destroy();
await new Promise((resolve) => setTimeout(resolve, 2000));
// Unloaded again after the exports closed: the machine is shared, so the baseline is the mean of the runs before and after.
const unloadedAfter = await latencies();
const baseline = (name) => (unloaded[name].p99 + unloadedAfter[name].p99) / 2;
const ratios = Object.fromEntries(
  Object.keys(calls).map((name) => [name, Number((loaded[name].p99 / baseline(name)).toFixed(2))]),
);
const result = {
  orders: ORDERS,
  requestsEach: REQUESTS,
  exportsOpen: EXPORTS,
  exportConnectionsHeld: held.n,
  unloadedBeforeMs: unloaded,
  withUnreadExportsMs: loaded,
  unloadedAfterMs: unloadedAfter,
  p99Ratio: ratios,
};
console.log(JSON.stringify(result, null, 2));
writeResult('export-isolation', JSON.stringify(result, null, 2));
await db.end();
await server.stop();
process.exit(Object.values(ratios).every((ratio) => ratio < 2) ? 0 : 1);
