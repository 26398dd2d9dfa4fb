// node bench/settings-load.mjs [<before-tree>]: what reading the settings costs every process that
// starts (the server, each `npm run ops` command, each test file): loading dist/src/config.js and
// one loadConfig({}), in a fresh Node process each time, as CPU milliseconds of that process. In one
// run, interleaved, ROUNDS times each: (a) loading Express, the baseline every server pays;
// (b) this tree; (c) a built tree given as argument (e.g. the tree before a change). Medians, each as
// a ratio of (a), and (b)/(c). Build both trees first (`npm run build`; tsc -p tsconfig.build.json).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { here, writeResult } from './support.mjs';

const ROOT = path.resolve(here, '..');
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const before = process.argv[2] === undefined ? undefined : path.resolve(process.argv[2]);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** CPU milliseconds a fresh process spends on `code` (the process's own start excluded). */
function cpuOf(code, cwd) {
  const script = `const c = process.cpuUsage(); ${code}; const u = process.cpuUsage(c); process.stdout.write(String((u.user + u.system) / 1000));`;
  const result = spawnSync(process.execPath, ['-e', script], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  if (result.status !== 0) throw new Error(`${code} failed in ${cwd}: ${result.stderr}`);
  return Number(result.stdout);
}

const settings = (tree) => `require(${JSON.stringify(path.join(tree, 'dist/src/config.js'))}).loadConfig({})`;
const runs = { express: [], after: [], before: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  runs.express.push(cpuOf("require('express')", ROOT));
  runs.after.push(cpuOf(settings(ROOT), ROOT));
  if (before) runs.before.push(cpuOf(settings(before), ROOT));
}

const express = median(runs.express);
const after = median(runs.after);
const lines = [
  `settings load, CPU ms, median of ${ROUNDS} fresh processes (load ${(await import('node:os')).loadavg()[0].toFixed(1)})`,
  `(a) require('express'): ${express.toFixed(1)}`,
  `(b) this tree, config.js + loadConfig({}): ${after.toFixed(1)} = ${(after / express).toFixed(2)} x (a)`,
];
if (before) {
  const old = median(runs.before);
  lines.push(
    `(c) ${before}: ${old.toFixed(1)} = ${(old / express).toFixed(2)} x (a)`,
    `(b)/(c): ${(after / old).toFixed(2)}; (b) - (c): ${(after - old).toFixed(1)} ms`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
writeResult('settings-load', lines.join('\n'));
