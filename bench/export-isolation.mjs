// npm run bench:export-isolation: another company's POST /auth/token and GET /orders/{orderRef}
// latencies, first unloaded (the baseline, same run) and then, for every CSV export of the
// contract in turn (the order book, refunds, the commission statement, claims), while twelve clients of
// the demo company ask for that export, never read a byte and reconnect every RECONNECT_SECONDS
// (15): issue 52 item 12's attack. Issues 40 and 52's figure: every p99 stays under 2x its
// unloaded p99. EXPORTS_PER_COMPANY=12, so the export pool (4 connections) is the only bound, and
// the stall cut at its default (15 s), as in production.
// A smoke run: BENCH_ORDERS=2000 BENCH_REFUNDS=2000 BENCH_COMMISSION_LINES=2000 BENCH_CLAIMS=2000 BENCH_REQUESTS=20 RECONNECT_SECONDS=2.
import net from 'node:net';
import pg from 'pg';
import { percentile, startBenchServer, writeResult } from './support.mjs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DEMO_PARTNERS } = require('../dist/src/modules/partners/demo-partners.js');
const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 60_000);
const COMMISSION_LINES = Number(process.env.BENCH_COMMISSION_LINES ?? 63_000);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 60_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const RECONNECT_SECONDS = Number(process.env.RECONNECT_SECONDS ?? 15);
const CLIENTS = 12;
const OTHER_ORDER = 'ORD-2026-9000000';

const server = await startBenchServer('export-isolation', {
  PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
  EXPORTS_PER_COMPANY: String(CLIENTS),
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
// The order the other company reads while the exports run: a copy of the first, placed by it.
await db.query(
  `insert into insurance_order select (r).* from (select jsonb_populate_record(o, jsonb_build_object('id', md5('eo-other'), 'order_ref', $2::text,
    'order_number', 'ORDN-2026-9000000', 'company_id', $1::text)) as r from insurance_order o where o.id = md5('eo1')::uuid) x`,
  [DEMO_PARTNERS[1].companyId, OTHER_ORDER],
);
await db.query(
  `insert into order_travel_company (order_id, company_id, position, placer, order_created_at) values (md5('eo-other')::uuid, $1, 0, true, now())`,
  [DEMO_PARTNERS[1].companyId],
);
// The refunds: REFUNDS provider reversals of one captured payment, spread over the orders.
await db.query(
  `insert into payment_attempt (id, payment_ref, company_id, scope, gateway, status, amount, currency, idempotency_key, request_fingerprint,
    expires_at, completed_at, created_at, updated_at)
  values (md5('export-bench-payment')::uuid, 'PAY-2026-BENCH', $1, 'ORDER', 'card_gateway', 'SUCCESS', 4500, 'NPR', md5('k')::uuid, 'bench',
    now(), now(), now(), now())`,
  [server.companyId],
);
await db.query(
  `insert into refund (id, refund_ref, order_id, attempt_id, cause, amount, fee, currency, status, gateway, actor, completed_at, created_at, updated_at)
  select md5('er' || i)::uuid, 'RFD-2026-' || lpad(i::text, 7, '0'), md5('eo' || (1 + i % ${ORDERS}))::uuid, md5('export-bench-payment')::uuid,
    'PROVIDER_REVERSAL', 4500, 0, 'NPR', 'SUCCEEDED', 'card_gateway', 'bench', now(), now() - make_interval(secs => i), now()
  from generate_series(1, ${REFUNDS}) i`,
);
// This month's commission statement: COMMISSION_LINES lines earned by the demo company (issue 52 saw a 10,000-line month stall the pool).
await db.query(
  `insert into commission_entry (id, kind, company_id, role, order_id, policy_number, payment_ref, currency, share, base, percent, cap_percent,
    capped, amount, occurred_at, period, created_at)
  select md5('ec' || i)::uuid, 'EARNED', $1, 'SELLER', md5('eo' || (1 + i % ${ORDERS}))::uuid, 'POL-2026-' || lpad(i::text, 7, '0'),
    'PAY-2026-' || lpad(i::text, 7, '0'), 'NPR', 4500, 4500, 10, 100, false, 450, now(),
    to_char(now() at time zone 'Asia/Kathmandu', 'YYYY-MM'), now()
  from generate_series(1, ${COMMISSION_LINES}) i`,
  [server.companyId],
);
// The claims: CLAIMS first notices of loss filed by the demo company, spread over the orders (GET /claims, decision record 0101).
await db.query(
  `insert into claim (id, created_at, updated_at, claim_ref, order_id, filed_by_company_id, status, claim_type, coverage_line,
    incident_date, incident_description, payee, flags, filed_at, idempotency_key, request_fingerprint)
  select md5('ecl' || i)::uuid, now(), now(), 'CLM-2026-' || lpad(i::text, 7, '0'), md5('eo' || (1 + i % ${ORDERS}))::uuid, $1,
    'SUBMITTED', 'MEDICAL_EXPENSES', 'MEDICAL_EXPENSES', current_date, 'Acute mountain sickness, treated at the Pheriche aid post',
    '{"type":"TRAVELLER"}', '["CURRENCY_CONVERSION"]', now() - make_interval(secs => i), md5('eck' || i)::uuid, 'bench'
  from generate_series(1, ${CLAIMS}) i`,
  [server.companyId],
);
await db.query(`set session_replication_role = origin`);
await db.query(
  `insert into order_status_count (company_id, status, payment_status, orders) values ($1, 'PENDING', 'NOT_INITIATED', $2)
  on conflict (company_id, status, payment_status) do update set orders = excluded.orders`,
  [server.companyId, ORDERS],
);
await db.query('vacuum analyze insurance_order, refund, commission_entry, claim');
const {
  rows: [{ period }],
} = await db.query(`select to_char(now() at time zone 'Asia/Kathmandu', 'YYYY-MM') as period`);

/** Every CSV export of the contract, asked for by the demo company. */
const EXPORTS = {
  'GET /orders': '/api/external/v1/orders',
  'GET /refunds': '/api/external/v1/refunds',
  'GET /commission-statements/{period}': `/api/external/v1/commission-statements/${period}`,
  'GET /claims': '/api/external/v1/claims',
};

// The calls measured are another company's: the exports must not slow a company that runs none.
const demo = DEMO_PARTNERS[1];
const otherToken = await fetch(`${server.url}/api/external/v1/auth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ clientId: demo.clientId, clientSecret: demo.clientSecret }),
}).then(async (response) => (await response.json()).data.accessToken);
const calls = {
  'POST /auth/token': () =>
    fetch(`${server.url}/api/external/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: demo.clientId, clientSecret: demo.clientSecret }),
    }),
  'GET /orders/{orderRef}': () =>
    fetch(`${server.url}/api/external/v1/orders/${OTHER_ORDER}`, {
      headers: { authorization: `Bearer ${otherToken}` },
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
function unreadExport(path) {
  const socket = net.connect(new URL(server.url).port, '127.0.0.1');
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/csv\r\nAuthorization: ${server.authorization}\r\n\r\n`,
  );
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/** CLIENTS unread exports of `path`, each dropped and asked for again every RECONNECT_SECONDS, until `stop()`. */
function reconnectingExports(path) {
  let sockets = Array.from({ length: CLIENTS }, () => unreadExport(path));
  const timer = setInterval(() => {
    for (const socket of sockets) socket.destroy();
    sockets = Array.from({ length: CLIENTS }, () => unreadExport(path));
  }, RECONNECT_SECONDS * 1000);
  return {
    stop() {
      clearInterval(timer);
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** Connections inside a transaction, by pool: the export pool's and the request pool's (every other of this database). */
async function connectionsHeld() {
  const {
    rows: [held],
  } = await db.query(
    `select count(*) filter (where application_name = 'streamed-answers')::int as export_pool,
      count(*) filter (where application_name <> 'streamed-answers' and state like 'idle in transaction%')::int as request_pool_idle_in_transaction
    from pg_stat_activity where datname = current_database() and xact_start is not null and pid <> pg_backend_pid()`,
  );
  return held;
}

await latencies(); // warm-up
const unloaded = await latencies();
const loaded = {};
const held = {};
for (const [name, path] of Object.entries(EXPORTS)) {
  const exports = reconnectingExports(path);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  held[name] = await connectionsHeld();
  loaded[name] = await latencies();
  exports.stop();
  await new Promise((resolve) => setTimeout(resolve, 2000));
}
// Unloaded again after the exports closed: the machine is shared, so the baseline is the mean of the runs before and after.
const unloadedAfter = await latencies();
const baseline = (call) => (unloaded[call].p99 + unloadedAfter[call].p99) / 2;
const ratios = Object.fromEntries(
  Object.entries(loaded).map(([name, measured]) => [
    name,
    Object.fromEntries(
      Object.keys(calls).map((call) => [call, Number((measured[call].p99 / baseline(call)).toFixed(2))]),
    ),
  ]),
);
const result = {
  orders: ORDERS,
  refunds: REFUNDS,
  commissionLines: COMMISSION_LINES,
  claims: CLAIMS,
  requestsEach: REQUESTS,
  unreadClientsPerExport: CLIENTS,
  reconnectSeconds: RECONNECT_SECONDS,
  connectionsHeld: held,
  unloadedBeforeMs: unloaded,
  withUnreadExportsMs: loaded,
  unloadedAfterMs: unloadedAfter,
  p99Ratio: ratios,
};
console.log(JSON.stringify(result, null, 2));
writeResult('export-isolation', JSON.stringify(result, null, 2));
await db.end();
await server.stop();
process.exit(Object.values(ratios).every((byCall) => Object.values(byCall).every((ratio) => ratio < 2)) ? 0 : 1);
