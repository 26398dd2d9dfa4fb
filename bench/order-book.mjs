// GET /orders (the order book, issue 29) with 1,000,000 orders of one company, and its CSV export.
// Seeds the orders with SQL (generate_series, in a bench database), then measures over HTTP the
// first page unfiltered, each filter and a name search (p50/p95, totalElements checked exact
// against a count), and a CSV export of 100,000 orders (rows/s, server RSS growth), and prints
// the plans of the page and count queries.
// Run: npm run bench:order-book   (BENCH_ORDERS, BENCH_REQUESTS, BENCH_EXPORT_ROWS to change the sizes;
// with DATABASE_URL, a database an earlier run seeded is reused as it is)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import pg from 'pg';
import { percentile, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const { orderBookQueries } = require('../dist/src/modules/orders/order-book.js');
const { pageRequest } = require('../dist/src/kernel/http/pagination.js');

const COUNT = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
/** Orders of another company that list the bench company as an agency (access LISTED_AGENCY). */
const LISTED = 2_000;
const TRAVELLERS = Math.max(1, Math.floor(COUNT / 10));
/** One order every 20 s from 2025-01-01: a million orders span about 231 days. */
const STEP_SECONDS = 20;
const EPOCH = Date.parse('2025-01-01T00:00:00Z');
const FIRST = [
  'Anna',
  'Bikash',
  'Chloé',
  'David',
  'Emma',
  'Félix',
  'Gita',
  'Hannah',
  'Ishaan',
  'Julia',
  'Kiran',
  'Léna',
  'Maya',
  'Nabin',
  'Olivia',
  'Pasang',
  'Quentin',
  'Rita',
  'Sabin',
  'Tara',
  'Uma',
  'Victor',
  'Wangmo',
  'Xavier',
  'Yuki',
  'Zoë',
  'Aarav',
  'Béatrice',
  'Carlos',
  'Dawa',
  'Elif',
  'Finn',
  'Greta',
  'Hugo',
  'Inès',
  'Jonas',
  'Kaito',
  'Lucía',
  'Mateo',
  'Nora',
  'Oscar',
  'Priya',
  'Rohan',
  'Sofía',
  'Tenzing',
  'Ulla',
  'Vera',
  'William',
  'Ximena',
  'Yara',
];
const LAST = [
  'Keller',
  'Gurung',
  'Dubois',
  'Smith',
  'Sherpa',
  'Tamang',
  'Müller',
  'Rossi',
  'García',
  'Tanaka',
  'Kim',
  'Novák',
  'Jensen',
  'Silva',
  'Khan',
  'Sharma',
  'Thapa',
  'Rai',
  'Magar',
  'Lama',
  'Schmidt',
  'Fischer',
  'Weber',
  'Martin',
  'Bernard',
  'López',
  'Fernández',
  'Bianchi',
  'Romano',
  'Satō',
  'Suzuki',
  'Chen',
  'Wang',
  'Li',
  'Nguyễn',
  'Brown',
  'Wilson',
  'Taylor',
  'Johansson',
  'Nielsen',
  'Kowalski',
  'Horvat',
  'Popescu',
  'Ivanov',
  'Petrov',
  'Yılmaz',
  'Cohen',
  'Levi',
  'Okafor',
  'Mensah',
  'Singh',
  'Patel',
  'Adhikari',
  'Shrestha',
  'Karki',
  'Bhandari',
  'Poudel',
  'Koirala',
  'Basnet',
  'Bista',
];
const sqlArray = (values) => `array[${values.map((v) => `'${v}'`).join(',')}]`;
const pad = (i) => String(i).padStart(7, '0');
const name = (t) => `${FIRST[t % FIRST.length]} ${LAST[Math.floor(t / FIRST.length) % LAST.length]}`;

async function withClient(databaseUrl, work) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The rows, in SQL: order i (1..COUNT) insures traveller i % TRAVELLERS, was created at EPOCH +
 * 20 i s, departs 1 to 400 days later; 60 % PAID (SUCCESS, policy number), 30 % PENDING
 * (NOT_INITIATED, INITIATED or FAILED), 10 % CANCELLED; 5 % in groups of 5. The load runs with
 * triggers and foreign keys off (replica role): documents are not created, and what the triggers
 * keep (payment_status, order_status_count, placer, order_created_at) is written directly, as they would have.
 */
async function seed(databaseUrl, companyId) {
  return withClient(databaseUrl, async (client) => {
    // A DATABASE_URL already seeded for this size (an earlier run) is measured as it is.
    const {
      rows: [had],
    } = await client.query(`select count(*)::int as n from insurance_order where company_id = $1`, [companyId]);
    if (had.n >= COUNT) {
      console.log(`reusing the ${COUNT.toLocaleString('en')} orders already seeded`);
      return (await client.query(`select pg_size_pretty(pg_total_relation_size('insurance_order')) as table_size`))
        .rows[0];
    }
    const started = performance.now();
    await client.query(`set maintenance_work_mem = '512MB'`);
    await client.query(`set session_replication_role = replica`);
    const {
      rows: [ctg],
    } = await client.query(`select id from ctg order by code limit 1`);
    const { rows: routes } = await client.query(`select id from route order by name`);
    const routeIds = sqlArray(routes.map((r) => r.id));
    const other = (await client.query(`select id from company where id <> $1 order by id limit 1`, [companyId])).rows[0]
      .id;
    await client.query(
      `
      insert into traveller (id, company_id, email, name, date_of_birth, nationality, id_type, id_number, gender, phone,
        emergency_contact_name, emergency_contact_phone, emergency_contact_email, emergency_contact_relation,
        avatar_document_id, passport_document_id, signature_document_id, created_at)
      select md5('bt' || t)::uuid, $1, 'traveller' || t || '@example.com',
        (${sqlArray(FIRST)})[1 + t % ${FIRST.length}] || ' ' || (${sqlArray(LAST)})[1 + (t / ${FIRST.length}) % ${LAST.length}],
        date '1960-01-01' + (t % 15000), 'Germany', 'PASSPORT', 'P' || t, 'FEMALE', '+49 30 1234567',
        'Contact', '+49 30 7654321', 'contact@example.com', 'Sibling',
        md5('ba' || t)::uuid, md5('bp' || t)::uuid, md5('bs' || t)::uuid, timestamptz '2024-12-01'
      from generate_series(0, ${TRAVELLERS - 1}) t`,
      [companyId],
    );
    await client.query(
      `
      insert into order_group (id, group_ref, company_id, currency, version, created_at, updated_at)
      select md5('bg' || g)::uuid, 'GRP-2025-' || lpad(g::text, 7, '0'), $1, 'NPR', 1, now(), now()
      from generate_series(0, ${Math.floor(COUNT / 100)}) g`,
      [companyId],
    );
    const batch = 100_000;
    for (let from = 1; from <= COUNT + LISTED; from += batch) {
      const to = Math.min(COUNT + LISTED, from + batch - 1);
      await client.query(
        `
        insert into insurance_order (id, order_ref, order_number, company_id, status, settlement_type, traveller_id, ctg_id, route_id,
          custom_route_name, departure_date, coverage_start_date, coverage_end_date, duration_days, group_id, custom_travel_agencies,
          currency, package_price, included_devices, excluded_included_device_ids, total_amount, paid_at, policy_number,
          payment_status, version, created_at, updated_at)
        select md5('bo' || i)::uuid, 'ORD-2025-' || lpad(i::text, 7, '0'), 'ORDN-2025-' || lpad(i::text, 7, '0'),
          case when i > ${COUNT} then $2::uuid else $1::uuid end,
          case when i % 10 < 6 then 'PAID' when i % 10 < 9 then 'PENDING' else 'CANCELLED' end, 'ONLINE',
          md5('bt' || (i % ${TRAVELLERS}))::uuid, $3::uuid,
          case when i % 7 = 0 then null else (${routeIds})[1 + i % ${routes.length}]::uuid end,
          case when i % 7 = 0 then 'Custom trek ' || (i % 50) end,
          d, d, d + 13, 14,
          case when i % 100 < 5 and i <= ${COUNT} then md5('bg' || (i / 100))::uuid end, '[]',
          'NPR', 4500 + (i % 100) * 10, '[]', '[]', 4500 + (i % 100) * 10,
          case when i % 10 < 6 then created + interval '5 minutes' end,
          case when i % 10 < 6 then 'POL-2025-' || lpad(i::text, 7, '0') end,
          case when i % 10 < 6 then 'SUCCESS' when i % 10 = 9 then 'CANCELLED' else (array['NOT_INITIATED', 'INITIATED', 'FAILED'])[1 + i % 3] end,
          1, created, created
        from generate_series(${from}, ${to}) i,
        lateral (select timestamptz '2025-01-01' + make_interval(secs => i * ${STEP_SECONDS}) as created) c,
        lateral (select (c.created at time zone 'Asia/Kathmandu')::date + 1 + (i % 400) as d) dd`,
        [companyId, other, ctg.id],
      );
      // A travel agency is on each of its own orders (placer); the other company's orders list it as an agency.
      await client.query(
        `
        insert into order_travel_company (order_id, company_id, position, placer, order_created_at)
        select md5('bo' || i)::uuid, $1, 0, i <= ${COUNT}, timestamptz '2025-01-01' + make_interval(secs => i * ${STEP_SECONDS})
        from generate_series(${from}, ${to}) i`,
        [companyId],
      );
      process.stdout.write(`\rseeded ${Math.min(to, COUNT).toLocaleString('en')} orders`);
    }
    await client.query(`set session_replication_role = origin`);
    await client.query(`insert into order_status_count (company_id, status, payment_status, orders)
      select company_id, status, payment_status, count(*) from insurance_order group by company_id, status, payment_status
      on conflict (company_id, status, payment_status) do update set orders = excluded.orders`);
    await client.query('vacuum analyze insurance_order');
    await client.query('vacuum analyze order_travel_company');
    await client.query('vacuum analyze traveller');
    await client.query('analyze order_group');
    const size = (await client.query(`select pg_size_pretty(pg_total_relation_size('insurance_order')) as table_size`))
      .rows[0];
    console.log(
      `\nseeded in ${((performance.now() - started) / 1000).toFixed(0)} s; insurance_order with its indexes ${size.table_size}`,
    );
    return size;
  });
}

const pick = (n) => 1 + Math.floor(Math.random() * n);
const dayOf = (i) => new Date(EPOCH + i * STEP_SECONDS * 1000 + (5 * 60 + 45) * 60 * 1000).toISOString().slice(0, 10);
const CASES = {
  'first page, no filter (newest first)': () => [],
  'page 50, no filter': () => [['page', '50']],
  'status=PAID (~60 %)': () => [['status', 'PAID']],
  'status=PENDING&status=CANCELLED (~40 %)': () => [
    ['status', 'PENDING'],
    ['status', 'CANCELLED'],
  ],
  'paymentStatus=FAILED (~10 %)': () => [['paymentStatus', 'FAILED']],
  'departureFrom..departureTo, one week': () => {
    const day = dayOf(pick(COUNT));
    const end = new Date(Date.parse(day) + 6 * 86_400_000).toISOString().slice(0, 10);
    return [
      ['departureFrom', day],
      ['departureTo', end],
    ];
  },
  'createdFrom..createdTo, one day (~4,300)': () => {
    const from = new Date(EPOCH + pick(COUNT - 5000) * STEP_SECONDS * 1000);
    return [
      ['createdFrom', from.toISOString()],
      ['createdTo', new Date(from.getTime() + 86_400_000).toISOString()],
    ];
  },
  groupRef: () => [['groupRef', `GRP-2025-${pad(Math.floor(pick(COUNT) / 100))}`]],
  'touristId (10 orders)': () => {
    const t = pick(TRAVELLERS) - 1;
    const hex = require('node:crypto').createHash('md5').update(`bt${t}`).digest('hex');
    return [
      [
        'touristId',
        `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
      ],
    ];
  },
  'search: order reference, lower case': () => [['search', `ord-2025-${pad(pick(COUNT))}`]],
  'search: policy number': () => [
    ['search', `POL-2025-${pad(Math.min(COUNT, (pick(COUNT / 10) - 1) * 10 + pick(5)))}`],
  ],
  'search: full name without accents (~200 orders)': () => [
    [
      'search',
      name(pick(TRAVELLERS) - 1)
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .toLowerCase(),
    ],
  ],
  'search: surname "muller" (~17,000 orders)': () => [['search', 'muller']],
};

async function measure(server, label, query) {
  const latencies = [];
  let matches = 0;
  let sample;
  for (let n = 0; n < REQUESTS; n++) {
    const params = query();
    const started = performance.now();
    const response = await fetch(`${server.url}/api/external/v1/orders?${new URLSearchParams(params)}`, {
      headers: { authorization: server.authorization },
    });
    const body = await response.json();
    latencies.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${label}: ${response.status} ${JSON.stringify(body)}`);
    matches += body.data.totalElements;
    sample ??= { params, totalElements: body.data.totalElements };
  }
  latencies.sort((a, b) => a - b);
  return {
    label,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: latencies[latencies.length - 1],
    meanMatches: matches / REQUESTS,
    sample,
  };
}

/** totalElements must be exact: the same filters counted straight in SQL, by the rule of access. */
async function expectExact(server, row) {
  // A filter every order passes makes the count read the rows instead of the counters.
  const filter = filterOf(row.sample.params);
  const always =
    filter.createdFrom === undefined
      ? { createdFrom: '1970-01-01T00:00:00Z' }
      : { departureFrom: filter.departureFrom ?? '2000-01-01' };
  const { count } = orderBookQueries(server.companyId, { ...filter, ...always }, pageRequest(0, 20));
  const total = await withClient(server.databaseUrl, async (client) =>
    Number((await client.query(count.text, count.values)).rows[0].total),
  );
  if (total !== row.sample.totalElements)
    throw new Error(`${row.label}: totalElements ${row.sample.totalElements} but ${total} orders match`);
}

function filterOf(params) {
  const filter = {};
  for (const [key, value] of params) {
    if (key === 'status') filter.status = [...(filter.status ?? []), value];
    else if (key !== 'page' && key !== 'size') filter[key] = value;
  }
  return filter;
}

function rssMiB(pid) {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Reads an export to its end while sampling the server's RSS; rows/s over the whole answer. */
async function measureExport(server) {
  const first = COUNT - EXPORT_ROWS + 1;
  const createdFrom = new Date(EPOCH + first * STEP_SECONDS * 1000).toISOString();
  const createdTo = new Date(EPOCH + (COUNT + 1) * STEP_SECONDS * 1000).toISOString();
  const params = new URLSearchParams([
    ['createdFrom', createdFrom],
    ['createdTo', createdTo],
  ]);
  global.gc?.();
  const before = rssMiB(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(server.pid));
  }, 20);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/external/v1/orders?${params}`, {
    headers: { authorization: server.authorization, accept: 'text/csv' },
  });
  if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
  let lines = 0;
  let bytes = 0;
  const firstByte = performance.now() - started;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(server.pid));
  const rows = lines - 1;
  // Listed orders carry created times past the company's own; those in the window count too.
  return {
    rows,
    seconds,
    rowsPerSecond: rows / seconds,
    firstByteMs: firstByte,
    mib: bytes / 1048576,
    rssBefore: before,
    rssPeak: peak,
    disposition: response.headers.get('content-disposition'),
  };
}

async function explain(databaseUrl, companyId, params) {
  const { page, count } = orderBookQueries(companyId, filterOf(params), pageRequest(0, 20));
  return withClient(databaseUrl, async (client) => {
    const plan = async (sql) =>
      (await client.query(`explain (analyze, costs off, timing on) ${sql.text}`, sql.values)).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    return { page: await plan(page), count: await plan(count) };
  });
}

async function main() {
  const server = await startBenchServer('order-book');
  const load = () => os.loadavg()[0].toFixed(2);
  try {
    const seeded = await seed(server.databaseUrl, server.companyId);
    const loadBefore = load();
    for (const query of Object.values(CASES)) await measure({ ...server }, 'warm-up', query);
    const rows = [];
    for (const [label, query] of Object.entries(CASES)) {
      const row = await measure(server, label, query);
      await expectExact(server, row);
      rows.push(row);
      console.log(
        `${label}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, mean totalElements ${Math.round(row.meanMatches).toLocaleString('en')}`,
      );
    }
    const exported = await measureExport(server);
    console.log(
      `export: ${exported.rows.toLocaleString('en')} rows in ${exported.seconds.toFixed(2)} s = ${Math.round(exported.rowsPerSecond).toLocaleString('en')} rows/s; RSS ${exported.rssBefore.toFixed(1)} -> peak ${exported.rssPeak.toFixed(1)} MiB`,
    );
    const loadAfter = load();
    const plans = {
      unfiltered: await explain(server.databaseUrl, server.companyId, []),
      status: await explain(server.databaseUrl, server.companyId, [
        ['status', 'PENDING'],
        ['status', 'CANCELLED'],
      ]),
      name: await explain(server.databaseUrl, server.companyId, [['search', 'muller']]),
    };
    const report = [
      `Run ${new Date().toISOString()}, Node ${process.version}, ${COUNT.toLocaleString('en')} orders of one travel agency (+ ${LISTED.toLocaleString('en')} of another company listing it), ${TRAVELLERS.toLocaleString('en')} travellers, ${REQUESTS} sequential requests per row, over HTTP (auth, validation, envelope included); load average ${loadBefore} before, ${loadAfter} after`,
      `insurance_order with its indexes: ${seeded.table_size}`,
      '',
      '| request | mean totalElements (exact) | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${Math.round(r.meanMatches).toLocaleString('en')} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} |`,
      ),
      '',
      `CSV export (Accept: text/csv, createdFrom..createdTo over the newest ${EXPORT_ROWS.toLocaleString('en')}): ${exported.rows.toLocaleString('en')} rows, ${exported.mib.toFixed(1)} MiB in ${exported.seconds.toFixed(2)} s = **${Math.round(exported.rowsPerSecond).toLocaleString('en')} rows/s**, first byte after ${exported.firstByteMs.toFixed(0)} ms; server RSS ${exported.rssBefore.toFixed(1)} MiB before, ${exported.rssPeak.toFixed(1)} MiB at peak (growth **${(exported.rssPeak - exported.rssBefore).toFixed(1)} MiB**); ${exported.disposition}`,
      '',
      ...Object.entries(plans).flatMap(([label, plan]) => [
        `Plan of the page query (${label}):`,
        '```',
        plan.page,
        '```',
        `Plan of the count query (${label}):`,
        '```',
        plan.count,
        '```',
      ]),
    ].join('\n');
    console.log(report);
    writeResult('order-book', report);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
