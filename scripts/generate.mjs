// Derives generated/ from spec/: the bundled document the server, Prism and Dredd load, and the
// TypeScript types handlers are written against. CI re-runs this and fails on any difference.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
fs.mkdirSync('generated', { recursive: true });
execFileSync(bin('redocly'), ['bundle', 'spec/openapi.yaml', '--output', 'generated/openapi.json', '--ext', 'json'], { stdio: ['ignore', 'ignore', 'inherit'] });
// Pretty, stable JSON so diffs of generated/ are readable in review.
const bundled = JSON.parse(fs.readFileSync('generated/openapi.json', 'utf8'));
fs.writeFileSync('generated/openapi.json', `${JSON.stringify(bundled, null, 2)}\n`);
execFileSync(bin('openapi-typescript'), ['generated/openapi.json', '--output', 'generated/api.d.ts', '--alphabetize'], { stdio: ['ignore', 'ignore', 'inherit'] });
// The typed client is a package of its own: it carries the same types inside it (as a .ts module,
// so its build emits them into dist/ beside the code that imports them).
const CLIENT_TYPES = 'clients/typescript/src/generated/api.ts';
fs.mkdirSync(path.dirname(CLIENT_TYPES), { recursive: true });
fs.writeFileSync(CLIENT_TYPES, `// Copied from generated/api.d.ts by npm run generate: do not edit.\n${fs.readFileSync('generated/api.d.ts', 'utf8')}`);
console.log(`generated/openapi.json, generated/api.d.ts and ${CLIENT_TYPES} are up to date with spec/`);
