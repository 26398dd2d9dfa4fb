// GET /travellers?search=... with 1,000,000 travellers of one company. Seeds them with SQL (the
// trigram index is dropped for the load and rebuilt exactly as the migration defines it), then
// measures latency over HTTP for several kinds of search and prints the query plans.
// Run: npm run build && node bench/traveller-search.mjs   (BENCH_TRAVELLERS to change the count)
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { percentile, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const { initOrm } = require('../dist/src/database.js');
const { travellerQueries } = require('../dist/src/modules/travellers/travellers.js');
const { pageRequest } = require('../dist/src/kernel/http/pagination.js');

const COUNT = Number(process.env.BENCH_TRAVELLERS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const FIRST = [
  'Anna',
  'Bikash',
  'Chloe',
  'David',
  'Emma',
  'Felix',
  'Gita',
  'Hannah',
  'Ishaan',
  'Julia',
  'Kiran',
  'Lena',
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
  'Zoe',
  'Aarav',
  'Beatrice',
  'Carlos',
  'Dawa',
  'Elif',
  'Finn',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kaito',
  'Lucia',
  'Mateo',
  'Nora',
  'Oscar',
  'Priya',
  'Rohan',
  'Sofia',
  'Tenzing',
  'Ulla',
  'Vera',
  'William',
  'Ximena',
  'Yara',
  'Zara',
  'Ahmed',
  'Bruno',
  'Clara',
  'Dorje',
  'Eva',
  'Farhan',
  'Gabriel',
  'Hiro',
  'Isla',
  'Jack',
  'Karma',
  'Liam',
  'Mila',
  'Niels',
  'Omar',
  'Pema',
  'Rafael',
  'Sara',
  'Thomas',
  'Ursula',
  'Vikram',
  'Wen',
  'Yusuf',
  'Zainab',
  'Amelie',
  'Ben',
  'Charlotte',
  'Diego',
  'Emil',
  'Frida',
  'Gaurav',
  'Helena',
  'Ivan',
  'Jana',
  'Kofi',
  'Laura',
  'Mohan',
  'Nina',
  'Olga',
  'Paul',
  'Rina',
  'Sven',
  'Tom',
  'Ugo',
  'Valentina',
  'Wim',
];
const LAST = [
  'Keller',
  'Gurung',
  'Dubois',
  'Smith',
  'Sherpa',
  'Tamang',
  'Muller',
  'Rossi',
  'Garcia',
  'Tanaka',
  'Kim',
  'Novak',
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
  'Lopez',
  'Fernandez',
  'Bianchi',
  'Romano',
  'Sato',
  'Suzuki',
  'Chen',
  'Wang',
  'Li',
  'Nguyen',
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
  'Yilmaz',
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
  'Walker',
  'Young',
  'King',
  'Wright',
  'Scott',
  'Green',
  'Baker',
  'Adams',
  'Nelson',
  'Hill',
  'Campbell',
  'Mitchell',
  'Roberts',
  'Carter',
  'Phillips',
  'Evans',
  'Turner',
  'Torres',
  'Parker',
  'Collins',
  'Edwards',
  'Stewart',
  'Morris',
  'Murphy',
  'Cook',
  'Rogers',
  'Morgan',
  'Peterson',
  'Cooper',
];
const NATIONS = [
  'Germany',
  'Nepal',
  'France',
  'United States',
  'United Kingdom',
  'India',
  'Japan',
  'Australia',
  'Netherlands',
  'Spain',
  'Italy',
  'China',
  'Israel',
  'Korea',
];
const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'example.de', 'mail.com.np'];
const CODES = ['49', '977', '33', '1', '44', '91', '81'];

// The same rows in SQL and in JS, so the benchmark can search for values that exist.
const first = (i) => FIRST[i % FIRST.length];
const last = (i) => LAST[Math.floor(i / FIRST.length) % LAST.length];
const idNumber = (i) => createHash('md5').update(`p${i}`).digest('hex').slice(0, 9).toUpperCase();
const phoneDigits = (i) => String(100000000 + ((i * 7919) % 899999999));
const sqlArray = (values) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

async function seed(databaseUrl, companyId) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(`set maintenance_work_mem = '512MB'`);
    await client.query('drop index if exists traveller_search_text_trgm_index');
    // Bulk load: the circular document <-> traveller keys are checked by the application, not here.
    await client.query(`set session_replication_role = replica`);
    const batch = 100_000;
    for (let from = 1; from <= COUNT; from += batch) {
      const to = Math.min(COUNT, from + batch - 1);
      await client.query(
        `
        insert into document (id, company_id, document_type, file_name, file_size, content_type, storage_key, sha256, traveller_id, attached_at, uploaded_at)
        select md5(kind || i)::uuid, $1, type, 'scan.png', 1000, 'image/png', 'bench/' || kind || i, repeat('0', 64), md5('t' || i)::uuid, now(), now()
        from generate_series(${from}, ${to}) i,
             (values ('a', 'AVATAR'), ('p', 'PASSPORT'), ('s', 'SIGNATURE')) as kinds(kind, type)`,
        [companyId],
      );
      await client.query(
        `
        insert into traveller (id, company_id, email, name, date_of_birth, nationality, id_type, id_number, gender, phone,
          emergency_contact_name, emergency_contact_phone, emergency_contact_email, emergency_contact_relation,
          avatar_document_id, passport_document_id, signature_document_id, created_at)
        select md5('t' || i)::uuid, $1,
          lower(f) || '.' || lower(l) || i || '@' || (${sqlArray(DOMAINS)})[1 + i % ${DOMAINS.length}],
          f || ' ' || l,
          date '1950-01-01' + (i % 20000),
          (${sqlArray(NATIONS)})[1 + i % ${NATIONS.length}],
          'PASSPORT', upper(substr(md5('p' || i), 1, 9)), (array['MALE','FEMALE','OTHER'])[1 + i % 3],
          '+' || (${sqlArray(CODES)})[1 + i % ${CODES.length}] || ' ' || (100000000 + (i::bigint * 7919) % 899999999),
          'Contact ' || l, '+49 151 0000000', 'contact' || i || '@example.com', 'Sibling',
          md5('a' || i)::uuid, md5('p' || i)::uuid, md5('s' || i)::uuid,
          timestamptz '2026-01-01' + make_interval(secs => i)
        from generate_series(${from}, ${to}) i,
        lateral (select (${sqlArray(FIRST)})[1 + i % ${FIRST.length}] f, (${sqlArray(LAST)})[1 + (i / ${FIRST.length}) % ${LAST.length}] l) names`,
        [companyId],
      );
      process.stdout.write(`\rseeded ${to} travellers`);
    }
    await client.query(`set session_replication_role = origin`);
    // The load ran with triggers off (replica role), so the per-company counter is back-filled the way its migration does.
    await client.query(`insert into traveller_count (company_id, travellers) select company_id, count(*) from traveller group by company_id
      on conflict (company_id) do update set travellers = excluded.travellers`);
    const indexStarted = performance.now();
    await client.query(
      `create index "traveller_search_text_trgm_index" on "traveller" using gin ("search_text" gin_trgm_ops)`,
    );
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    await client.query('analyze traveller');
    await client.query('analyze document');
    const size = (
      await client.query(
        `select pg_size_pretty(pg_relation_size('traveller_search_text_trgm_index')) index_size, pg_size_pretty(pg_relation_size('traveller')) table_size`,
      )
    ).rows[0];
    console.log(
      `\nseeded in ${((performance.now() - started) / 1000).toFixed(0)} s; trigram index built in ${indexSeconds.toFixed(0)} s`,
    );
    return { ...size, indexSeconds };
  } finally {
    await client.end();
  }
}

const pick = () => 1 + Math.floor(Math.random() * COUNT);
const SEARCHES = {
  'ID number fragment (7 chars)': () => idNumber(pick()).slice(1, 8),
  'e-mail local part': () => {
    const i = pick();
    return `${first(i).toLowerCase()}.${last(i).toLowerCase()}${i}@`;
  },
  'phone fragment (8 digits)': () => phoneDigits(pick()).slice(0, 8),
  'full name, any case (~110 matches)': () => {
    const i = pick();
    return `${first(i)} ${last(i)}`.toUpperCase();
  },
  'surname only (~11,000 matches)': () => last(pick()),
};

async function measure(server, label, query) {
  const latencies = [];
  let totalElements = 0;
  for (let n = 0; n < REQUESTS; n++) {
    const params = new URLSearchParams(query());
    const started = performance.now();
    const response = await fetch(`${server.url}/api/external/v1/travellers?${params}`, {
      headers: { authorization: server.authorization },
    });
    const body = await response.json();
    latencies.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${label}: ${response.status} ${JSON.stringify(body)}`);
    totalElements += body.data.totalElements;
  }
  latencies.sort((a, b) => a - b);
  return {
    label,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: latencies[latencies.length - 1],
    meanMatches: totalElements / REQUESTS,
  };
}

/** totalElements of the unfiltered list must be the company's exact row count. */
async function expectExactTotal(server, reported) {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('select count(*)::int as n from traveller where company_id = $1', [
      server.companyId,
    ]);
    if (rows[0].n !== reported)
      throw new Error(`totalElements ${reported} but the company has ${rows[0].n} travellers`);
  } finally {
    await client.end();
  }
}

async function explain(databaseUrl, companyId, search) {
  const orm = await initOrm(databaseUrl, 1);
  try {
    const { page, count } = travellerQueries(orm.em.fork(), companyId, { search }, pageRequest(0, 20));
    const connection = orm.em.getConnection();
    const plan = async (sql) =>
      (await connection.execute(`explain (analyze, costs off, timing on) ${sql}`))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    return {
      pageSql: page.getFormattedQuery(),
      page: await plan(page.getFormattedQuery()),
      count: await plan(
        count.getCountQuery?.().getFormattedQuery?.() ?? `select count(*) from (${count.getFormattedQuery()}) c`,
      ),
    };
  } finally {
    await orm.close();
  }
}

async function main() {
  const server = await startBenchServer('search');
  try {
    const seeded = await seed(server.databaseUrl, server.companyId);
    for (const query of Object.values(SEARCHES))
      await measure({ ...server }, 'warm-up', () => ({ search: query() })).catch(() => undefined);
    const rows = [];
    for (const [label, query] of Object.entries(SEARCHES))
      rows.push(await measure(server, label, () => ({ search: query() })));
    const unfiltered = await measure(
      server,
      `no search, newest first (all ${COUNT.toLocaleString('en')}, total from the counter)`,
      () => ({}),
    );
    rows.push(unfiltered);
    await expectExactTotal(server, unfiltered.meanMatches);
    const sample = idNumber(Math.min(424242, COUNT)).slice(1, 8);
    const plans = await explain(server.databaseUrl, server.companyId, sample);
    const report = [
      `Run ${new Date().toISOString()}, Node ${process.version}, ${COUNT.toLocaleString('en')} travellers of one company, ${REQUESTS} sequential requests per row, over HTTP (auth, validation, envelope included)`,
      `traveller table ${seeded.table_size}, trigram index ${seeded.index_size} (built in ${seeded.indexSeconds.toFixed(0)} s)`,
      '',
      '| search | mean matches | p50 ms | p95 ms | max ms |',
      '|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${Math.round(r.meanMatches).toLocaleString('en')} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} |`,
      ),
      '',
      `Plan of the page query for search=${sample}:`,
      '```',
      plans.pageSql,
      plans.page,
      '```',
      'Plan of the count query:',
      '```',
      plans.count,
      '```',
    ].join('\n');
    console.log(report);
    writeResult('traveller-search', report);
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
