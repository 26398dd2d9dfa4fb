// node bench/quote-ab.mjs <treeA> <treeB>: the quote of two built checkouts (each `npm run build`
// in its own work tree), against each other. Each server runs on its own throwaway PostgreSQL;
// rounds alternate which goes first, and the figure is the median of the per-round ratios B/A, so
// that the shared machine's drift cancels out. For before/after figures of a change to the quote
// path; BENCHMARKS.md says where it was used. QUOTE_AB_ROUNDS (default 10) and QUOTE_AB_SECONDS
// per tree and round (default 5) tune it.
import autocannon from 'autocannon';
import path from 'node:path';
import { createRequire } from 'node:module';

const [treeA, treeB] = process.argv.slice(2).map((tree) => path.resolve(tree ?? ''));
if (!treeA || !treeB) throw new Error('usage: node bench/quote-ab.mjs <treeA> <treeB>');
const ROUNDS = Number(process.env.QUOTE_AB_ROUNDS ?? 10);
const SECONDS = Number(process.env.QUOTE_AB_SECONDS ?? 5);

const require = createRequire(import.meta.url);
const { kathmanduToday, addDays } = require(path.join(treeB, 'dist/src/kernel/business-date.js'));
const body = JSON.stringify({
  nationality: 'German',
  ages: [34],
  startDate: addDays(kathmanduToday(), 30),
  duration: 16,
  routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
});

const start = async (tree, name) => (await import(path.join(tree, 'bench/support.mjs'))).startBenchServer(name);
const [a, b] = [await start(treeA, 'quote-a'), await start(treeB, 'quote-b')];

function quotes(server, duration) {
  const options = {
    url: `${server.url}/api/external/v1/reference/quote`,
    method: 'POST',
    headers: { authorization: server.authorization, 'content-type': 'application/json' },
    body,
    connections: 50,
    duration,
  };
  return new Promise((resolve, reject) =>
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

try {
  await quotes(a, 3);
  await quotes(b, 3);
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [first, second] = round % 2 ? [b, a] : [a, b];
    const results = new Map([
      [first, await quotes(first, SECONDS)],
      [second, await quotes(second, SECONDS)],
    ]);
    const [ra, rb] = [results.get(a), results.get(b)];
    const failures = ra.errors + ra.non2xx + rb.errors + rb.non2xx;
    ratios.push(rb.requests.average / ra.requests.average);
    console.log(
      `round ${round + 1}: A ${ra.requests.average.toFixed(0)} req/s, B ${rb.requests.average.toFixed(0)} req/s, B/A ${(ratios.at(-1) * 100).toFixed(1)}%, failures ${failures}`,
    );
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  console.log(`B/A, median of ${ROUNDS} rounds: ${(median * 100).toFixed(1)}%`);
} finally {
  await a.stop();
  await b.stop();
}
