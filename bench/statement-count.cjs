// Counts the SQL statements each HTTP request of a server sends, for finding where a flow's
// statements go: preload it into the server and run a bench against it, e.g.
//   NODE_OPTIONS="--require $PWD/bench/statement-count.cjs" FLOW_SECONDS=5 FLOW_CONNECTIONS=1 node bench/booking-flow.mjs
// Each process that served requests writes bench/results/statements-<pid>.txt when it exits: per
// route (identifiers folded to :id), requests, statements and statements per request, then the
// most frequent statements per request; statements outside any request count as (background).
// The CPU a request took (process CPU from request to answer) is its own only when requests come
// one at a time (FLOW_CONNECTIONS=1).
// Both copies of `pg` in node_modules (ours and MikroORM's) are counted.
const { AsyncLocalStorage } = require('node:async_hooks');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const requestScope = new AsyncLocalStorage();
const routes = new Map();
const route = (key) =>
  routes.get(key) ?? routes.set(key, { requests: 0, statements: 0, cpuMicros: 0, texts: new Map() }).get(key);

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, request, ...rest) {
  if (event !== 'request') return emit.call(this, event, request, ...rest);
  const key = `${request.method} ${request.url.replace(/\?.*/, '').replace(/ORD-[\w-]+|[0-9a-f-]{36}|\d{3,}/g, ':id')}`;
  const counted = route(key);
  counted.requests += 1;
  // CPU of the process from the request to its answer: the request's own cost when requests come one at a time.
  const started = process.cpuUsage();
  rest[0]?.once?.('finish', () => {
    const used = process.cpuUsage(started);
    counted.cpuMicros += used.user + used.system;
  });
  return requestScope.run(counted, () => emit.call(this, event, request, ...rest));
};

const root = path.join(__dirname, '..', 'node_modules');
for (const copy of [path.join(root, 'pg'), path.join(root, '@mikro-orm/postgresql/node_modules/pg')]) {
  if (!fs.existsSync(copy)) continue;
  const { Client } = require(copy);
  const query = Client.prototype.query;
  Client.prototype.query = function (config, ...rest) {
    const counted = requestScope.getStore() ?? route('(background)');
    counted.statements += 1;
    const text = (typeof config === 'string' ? config : (config?.text ?? '')).replace(/\s+/g, ' ').slice(0, 160);
    counted.texts.set(text, (counted.texts.get(text) ?? 0) + 1);
    return query.call(this, config, ...rest);
  };
}

function report() {
  if (![...routes.values()].some((counted) => counted.requests > 0)) return;
  const lines = [];
  for (const [key, counted] of [...routes].sort((a, b) => b[1].statements - a[1].statements)) {
    const per = Math.max(1, counted.requests);
    lines.push(
      `${key}: ${counted.requests} requests, ${counted.statements} statements, ${(counted.statements / per).toFixed(1)} a request, ${(counted.cpuMicros / per / 1000).toFixed(2)} ms CPU a request`,
    );
    for (const [text, n] of [...counted.texts].sort((a, b) => b[1] - a[1]).slice(0, 30))
      lines.push(`    ${(n / per).toFixed(2)}  ${text}`);
  }
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', `statements-${process.pid}.txt`), `${lines.join('\n')}\n`);
}
process.on('exit', report);
