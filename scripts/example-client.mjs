// The examples are a partner's code: they import `@partner-booking/client` as a partner installs it,
// from the tarball `npm pack` makes of clients/typescript, not from its source. This builds that
// tarball from a copy of the client (its declarations emitted as a partner receives them), and
// unpacks it where the examples' build (tsconfig.examples.json `paths`) and Node (from
// dist/examples/) find it. Offline: the package's one dependency, openapi-fetch, resolves from this
// repository's node_modules. Skipped when the client has not changed since the last run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLIENT = path.join(ROOT, 'clients/typescript');
const WORK = path.join(ROOT, 'build/example-client');
const INSTALLED = path.join(ROOT, 'dist/examples/node_modules/@partner-booking/client');
const STAMP = path.join(INSTALLED, '.packed-from');

/** The newest change among the client's files, and how many there are (a deletion changes it too). */
function clientVersion() {
  const files = fs
    .readdirSync(CLIENT, { recursive: true })
    .map(String)
    .filter((file) => !/^(dist|node_modules)([\\/]|$)/.test(file))
    .map((file) => fs.statSync(path.join(CLIENT, file)))
    .filter((stat) => stat.isFile());
  return `${files.length} files, newest ${Math.max(...files.map((stat) => stat.mtimeMs))}`;
}

const version = clientVersion();
const upToDate = () => fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === version;
if (upToDate()) process.exit(0);

// One packer at a time (two example runs started together): the other waits, then finds it done.
const LOCK = `${WORK}.lock`;
fs.mkdirSync(path.dirname(LOCK), { recursive: true });
for (let waited = 0; ; waited += 200) {
  try {
    fs.mkdirSync(LOCK);
    break;
  } catch (failure) {
    if (failure.code !== 'EEXIST') throw failure;
    if (waited > 120_000)
      throw new Error(`${LOCK} held for 2 minutes: remove it if no example build runs`, { cause: failure });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}
process.on('exit', () => fs.rmSync(LOCK, { recursive: true, force: true }));
if (upToDate()) process.exit(0);

const source = path.join(WORK, 'source');
fs.rmSync(WORK, { recursive: true, force: true });
fs.cpSync(CLIENT, source, { recursive: true, filter: (file) => !/[\\/](dist|node_modules)$/.test(file) });
// The package's own build (its `prepack`), with this repository's TypeScript 7: fast, and the same
// declarations a partner gets (test/client/installable-package.test.ts checks the 5.9 build's).
execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript-native/bin/tsc'), '-p', source], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
const packed = execFileSync(
  'npm',
  ['pack', '--ignore-scripts', '--pack-destination', WORK, '--loglevel=error', '--json'],
  { cwd: source, encoding: 'utf8' },
);
const tarball = path.join(WORK, JSON.parse(packed)[0].filename);
fs.rmSync(INSTALLED, { recursive: true, force: true });
fs.mkdirSync(INSTALLED, { recursive: true });
// What `npm install <tarball>` puts in node_modules, without asking a registry for its dependency.
execFileSync('tar', ['-xzf', tarball, '-C', INSTALLED, '--strip-components=1']);
fs.writeFileSync(STAMP, version);
console.log(`examples: @partner-booking/client installed from ${path.relative(ROOT, tarball)}`);
