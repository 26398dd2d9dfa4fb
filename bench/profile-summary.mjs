// node bench/profile-summary.mjs <file.cpuprofile> [top] [lastSeconds]: self time of a V8 CPU
// profile (from BENCH_PROFILE=1 npm run bench) by package or source file and by function, idle
// time excluded. With lastSeconds only the end of the profile counts (the quote run), not the
// start-up (module loading, schema compilation).
import fs from 'node:fs';

const [file, topArg, lastArg] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const from = lastArg ? profile.endTime - Number(lastArg) * 1e6 : profile.startTime;
const selfMicros = new Map();
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < from) continue;
  const id = profile.samples[i];
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}

function owner(url) {
  if (!url) return '(native/V8)';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  const source = /\/(dist\/src\/.*|bench\/.*)$/.exec(url);
  if (source) return source[1];
  if (url.startsWith('node:')) return url;
  return url;
}

const byOwner = new Map();
const byFunction = new Map();
let busy = 0;
for (const [id, micros] of selfMicros) {
  const { callFrame } = nodes.get(id);
  if (['(idle)', '(program)'].includes(callFrame.functionName)) continue;
  busy += micros;
  const who = callFrame.functionName === '(garbage collector)' ? '(garbage collector)' : owner(callFrame.url);
  byOwner.set(who, (byOwner.get(who) ?? 0) + micros);
  const name = `${callFrame.functionName || '(anonymous)'} ${who}:${callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
}

const rows = (map) =>
  [...map.entries()]
    .sort((x, y) => y[1] - x[1])
    .slice(0, top)
    .map(([name, micros]) => `| ${((micros / busy) * 100).toFixed(1)}% | ${name.replaceAll('|', '\\|')} |`);
console.log(`busy CPU ${(busy / 1e6).toFixed(1)} s of ${((profile.endTime - from) / 1e6).toFixed(1)} s profiled\n`);
console.log('| self | package or file |\n|---|---|');
console.log(rows(byOwner).join('\n'));
console.log('\n| self | function |\n|---|---|');
console.log(rows(byFunction).join('\n'));
