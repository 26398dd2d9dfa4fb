// npm run bench:webhook-fairness: one company's endpoint never answers while 100 test events go to
// it; another company's deliveries (20 events, one every 200 ms) are timed from commit to verified
// arrival, first alone (the baseline, same run) and then beside the hanging company. Issue 40's
// figure: the other company's p95 stays under 2 s.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { percentile, startBenchServer, writeResult } from './support.mjs';

const require = createRequire(import.meta.url);
const { newWebhookSecret } = require('../dist/src/modules/webhooks/rules/signature.js');
const { DEMO_PARTNERS } = require('../dist/src/modules/partners/demo-partners.js');
const HANGING_EVENTS = Number(process.env.BENCH_HANGING_EVENTS ?? 100);
const PROMPT_EVENTS = Number(process.env.BENCH_PROMPT_EVENTS ?? 20);

const [stalled, prompt] = [DEMO_PARTNERS[0].companyId, DEMO_PARTNERS[1].companyId];
const secret = newWebhookSecret();
const verifier = new Webhook(secret);
const arrivedAt = new Map();
const receiver = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const event = verifier.verify(Buffer.concat(chunks).toString('utf8'), request.headers);
    if (!arrivedAt.has(event.id)) arrivedAt.set(event.id, Date.now());
    response.writeHead(204).end();
  });
});
// Takes every request and never answers: the sender waits for its WEBHOOK_TIMEOUT_MS (10 s). Counts
// the requests open at once: the hanging company's deliveries in flight, held to its cap.
const held = { open: 0, most: 0 };
const hanging = http.createServer((request) => {
  held.open += 1;
  held.most = Math.max(held.most, held.open);
  request.socket.once('close', () => (held.open -= 1));
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
await new Promise((resolve) => hanging.listen(0, '127.0.0.1', resolve));

const server = await startBenchServer('webhook-fairness', { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' });
const db = new pg.Client({ connectionString: server.databaseUrl });
await db.connect();
await db.query(`delete from webhook_endpoint where company_id = any($1)`, [[stalled, prompt]]);
await db.query(`insert into webhook_endpoint (company_id, url, secret) values ($1, $2, $3), ($4, $5, $3)`, [
  stalled,
  `http://127.0.0.1:${hanging.address().port}/hooks`,
  secret,
  prompt,
  `http://127.0.0.1:${receiver.address().port}/hooks`,
]);

/** Commits `count` webhook.test events of a company at once; answers their ids and commit time. */
async function commitEvents(companyId, count) {
  const at = new Date();
  const ids = Array.from({ length: count }, () => `evt_${randomUUID().replaceAll('-', '')}`);
  const payloads = ids.map((id) =>
    JSON.stringify({ id, type: 'webhook.test', timestamp: at.toISOString(), data: { message: 'bench' } }),
  );
  await db.query(
    `insert into webhook_event (id, company_id, type, payload, created_at) select id, $1, 'webhook.test', payload::jsonb, $2 from unnest($3::text[], $4::text[]) as t(id, payload)`,
    [companyId, at, ids, payloads],
  );
  return ids.map((id) => ({ id, committed: Date.now() }));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The prompt company's events, one every 200 ms; answers their latencies (ms) once all arrived or 60 s passed. */
async function promptLatencies() {
  const sent = [];
  for (let i = 0; i < PROMPT_EVENTS; i++) {
    sent.push(...(await commitEvents(prompt, 1)));
    await sleep(200);
  }
  const deadline = Date.now() + 60_000;
  while (sent.some((event) => !arrivedAt.has(event.id)) && Date.now() < deadline) await sleep(50);
  return sent.map((event) => (arrivedAt.get(event.id) ?? Infinity) - event.committed).sort((a, b) => a - b);
}

const summary = (lags) => ({
  p50: percentile(lags, 50),
  p95: percentile(lags, 95),
  max: lags.at(-1),
  lost: lags.filter((lag) => lag === Infinity).length,
});
const alone = summary(await promptLatencies());
await commitEvents(stalled, HANGING_EVENTS);
await sleep(1000);
const beside = summary(await promptLatencies());
const result = {
  hangingEvents: HANGING_EVENTS,
  promptEvents: PROMPT_EVENTS,
  settings: { WEBHOOK_CONCURRENCY: 50, WEBHOOK_CONCURRENCY_PER_COMPANY: 5, WEBHOOK_TIMEOUT_MS: 10_000 },
  promptAloneMs: alone,
  promptBesideHangingMs: beside,
  p95Ratio: Number((beside.p95 / alone.p95).toFixed(2)),
  hangingMostOpen: held.most,
};
console.log(JSON.stringify(result, null, 2));
writeResult('webhook-fairness', JSON.stringify(result, null, 2));
await db.end();
hanging.closeAllConnections();
await server.stop();
receiver.close();
hanging.close();
process.exit(beside.p95 < 2000 ? 0 : 1);
