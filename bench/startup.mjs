// npm run bench:startup: how long an operator waits, on a current build. In one run, interleaved,
// ROUNDS times each: (0) `node -e 0` through npm (`npm exec -- node -e 0`), the floor every npm
// command pays; (a) `npm run ops -- demo --json`; (b) `npm start` on the embedded default until
// /healthz answers, then SIGTERM and its exit. Medians, and each as a ratio of (0).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { here, writeResult } from './support.mjs';

const ROOT = path.resolve(here, '..');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
fs.chmodSync(dataDir, 0o755);
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATA_DIR: dataDir,
  LOG_FORMAT: 'json',
  LOG_LEVEL: 'warn',
};

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function timed(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync('npm', args, { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed: ${result.stderr}`);
  return { seconds: seconds(start), stdout: result.stdout };
}

async function startToHealthy() {
  const port = await freePort();
  const start = process.hrtime.bigint();
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => npm.once('exit', resolve));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const healthy = seconds(start);
  const stopAt = process.hrtime.bigint();
  npm.kill('SIGTERM');
  const code = await exited;
  return { healthy, stopped: seconds(stopAt), code };
}

// Warm-up: the first start builds (if needed) and initialises the embedded cluster.
await startToHealthy();
const samples = { floor: [], ops: [], start: [], stop: [] };
let opsStdoutIsJson = true;
for (let round = 0; round < ROUNDS; round++) {
  samples.floor.push(timed(['exec', '--', 'node', '-e', '0']).seconds);
  const ops = timed(['run', 'ops', '--', 'demo', '--json']);
  try {
    JSON.parse(ops.stdout);
  } catch {
    opsStdoutIsJson = false;
  }
  samples.ops.push(ops.seconds);
  const started = await startToHealthy();
  if (started.code !== 0) throw new Error(`npm start exited ${started.code} on SIGTERM`);
  samples.start.push(started.healthy);
  samples.stop.push(started.stopped);
}
fs.rmSync(dataDir, { recursive: true, force: true });

const floor = median(samples.floor);
const row = (name, values) => `| ${name} | ${median(values).toFixed(2)} s | ${(median(values) / floor).toFixed(1)} × |`;
const text = [
  `Node ${process.version}, ${ROUNDS} interleaved rounds, medians`,
  '',
  '| what | median | ratio to (0) |',
  '|---|---|---|',
  row('(0) `npm exec -- node -e 0`', samples.floor),
  row('(a) `npm run ops -- demo --json`', samples.ops),
  row('(b) `npm start` until `/healthz` answers (build current, embedded cluster stopped before)', samples.start),
  row('(c) SIGTERM to `npm start` until it exited 0', samples.stop),
  '',
  `ops stdout was nothing but JSON in every round: ${opsStdoutIsJson}`,
].join('\n');
console.log(text);
writeResult('startup', text);
