// npm run test:contract: starts the built server on a free port (DATABASE_URL, or an embedded
// cluster in a temporary DATA_DIR), then lets Dredd walk every documented example of the bundled
// spec against it, with test/contract/*hooks.cjs (in name order) supplying the token and live fixtures.
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dredd-'));
fs.chmodSync(dataDir, 0o755);

const server = fork(path.join(root, 'dist/src/main.js'), [], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const port = await new Promise((resolve, reject) => {
  server.on('message', (message) => message.port && resolve(message.port));
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});
const baseUrl = `http://127.0.0.1:${port}`;

const dredd = spawn(
  path.join(root, 'node_modules/.bin/dredd'),
  [path.join(root, 'generated/openapi.json'), baseUrl, `--hookfiles=${path.join(root, 'test/contract/*hooks.cjs')}`, '--language=nodejs', '--loglevel=warning'],
  { stdio: 'inherit', env: { ...process.env, DREDD_BASE_URL: baseUrl } },
);
const code = await new Promise((resolve) => dredd.on('exit', resolve));

server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(code ?? 1);
