// npm run bench:webhooks: 1,000 order.paid events committed in one burst, delivered by a built
// server through the outbox relay and pg-boss to a receiver on loopback that verifies every
// delivery with the standardwebhooks package. Reports the time until the last one arrived and
// the delivery latency (commit to verified arrival) percentiles.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { startBenchServer } from './support.mjs';

const require = createRequire(import.meta.url);
const { newWebhookSecret } = require('../dist/src/modules/webhooks/rules/signature.js');
const EVENTS = Number(process.env.WEBHOOK_BENCH_EVENTS ?? 1000);

const secret = newWebhookSecret();
const verifier = new Webhook(secret);
const seen = new Map();
let rejected = 0;
// Requests open at the receiver at once: the deliveries in flight (at most WEBHOOK_CONCURRENCY_PER_COMPANY, one company here).
let open = 0;
let mostOpen = 0;
let allArrived;
const done = new Promise((resolve) => (allArrived = resolve));
const receiver = http.createServer((request, response) => {
  open += 1;
  mostOpen = Math.max(mostOpen, open);
  response.on('finish', () => (open -= 1));
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    try {
      const event = verifier.verify(Buffer.concat(chunks).toString('utf8'), request.headers);
      if (!seen.has(event.id)) seen.set(event.id, Date.now() - Date.parse(event.timestamp));
      response.writeHead(204).end();
      if (seen.size === EVENTS) allArrived();
    } catch {
      rejected += 1;
      response.writeHead(400).end();
    }
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${receiver.address().port}/hooks`;

const server = await startBenchServer('webhooks', { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' });
const db = new pg.Client({ connectionString: server.databaseUrl });
await db.connect();
// The bench company's one endpoint, for every event (a company may have up to 5).
await db.query(`delete from webhook_endpoint where company_id = $1`, [server.companyId]);
await db.query(`insert into webhook_endpoint (company_id, url, secret) values ($1, $2, $3)`, [
  server.companyId,
  endpoint,
  secret,
]);

// The burst: what 1,000 payment transactions leave in the outbox, committed at once.
const at = new Date();
const ids = Array.from({ length: EVENTS }, () => `evt_${randomUUID().replaceAll('-', '')}`);
const payloads = ids.map((id, i) =>
  JSON.stringify({
    id,
    type: 'order.paid',
    timestamp: at.toISOString(),
    data: {
      orderId: randomUUID(),
      orderRef: `ORD-2026-B${i}`,
      orderNumber: `ORDN-2026-B${i}`,
      orderStatus: 'PAID',
      groupRef: null,
      amount: 4500,
      currency: 'NPR',
      paymentRef: `ORD-2026-B${i}-1`,
      paymentStatus: 'SUCCESS',
      paymentMethod: 'CARD_GATEWAY',
      paymentAmount: 4500,
      reason: null,
    },
  }),
);
const started = Date.now();
await db.query(
  `insert into webhook_event (id, company_id, type, payload, created_at) select id, $1, 'order.paid', payload::jsonb, $2 from unnest($3::text[], $4::text[]) as t(id, payload)`,
  [server.companyId, at, ids, payloads],
);
const timeout = setTimeout(() => allArrived(), 120_000);
await done;
clearTimeout(timeout);
const seconds = (Date.now() - started) / 1000;
const lags = [...seen.values()].sort((a, b) => a - b);
const pct = (p) => lags[Math.min(lags.length - 1, Math.ceil((p / 100) * lags.length) - 1)];
const duplicates = (
  await db.query(
    `select count(*)::int as n from webhook_delivery_try where event_id = any($1) and outcome = 'DELIVERED' group by event_id having count(*) > 1`,
    [ids],
  )
).rowCount;
console.log(
  JSON.stringify(
    {
      events: EVENTS,
      delivered: seen.size,
      rejected,
      duplicates,
      mostOpen,
      seconds,
      latencyMs: { p50: pct(50), p95: pct(95), p99: pct(99), max: lags.at(-1) },
    },
    null,
    2,
  ),
);
await db.end();
await server.stop();
receiver.close();
process.exit(seen.size === EVENTS && seconds <= 60 ? 0 : 1);
