// npm run docs: generated/openapi.json -> generated/docs.html, a Redoc page that loads nothing from
// outside the page. `--inlineBundle` inlines Redoc's script, and scripts/docs-template.hbs (Redoc's
// own template plus an inline icon) keeps the browser from asking for /favicon.ico. One thing has
// no option: Redoc 3 draws its "API docs by Redocly" footer logo from cdn.redoc.ly in the
// browser, which fails (and logs a console error) wherever partners' networks or ours block it.
// That logo is replaced here by an inline wordmark, and the build fails if the bundle changes so
// that a CDN logo URL is left (the browser test would catch it later anyway).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// Two pages: the sandbox's (docs.html, the whole contract) and a live server's (docs-live.html),
// built from the document a live server serves: no sandbox helper, no Sandbox tag, and no guide
// section about the sandbox (its demo credentials and test cards). The sections are those
// documentWithoutSandbox (src/modules/sandbox/sandbox-presence.ts) removes; a test holds the two to it.
const SANDBOX_TAG = 'Sandbox';
const SANDBOX_GUIDE_SECTIONS = ['Sandbox', 'Testing your integration'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function liveDocument(document) {
  const live = structuredClone(document);
  for (const [route, item] of Object.entries(live.paths)) {
    const operations = METHODS.map((method) => item[method]).filter(Boolean);
    if (operations.length > 0 && operations.every((operation) => operation.tags?.includes(SANDBOX_TAG)))
      delete live.paths[route];
  }
  live.tags = (live.tags ?? []).filter((tag) => tag.name !== SANDBOX_TAG);
  for (const group of live['x-tagGroups'] ?? []) group.tags = group.tags.filter((tag) => tag !== SANDBOX_TAG);
  live.info.description = live.info.description
    .split(/^(?=## )/m)
    .filter((section) => !SANDBOX_GUIDE_SECTIONS.some((heading) => section.startsWith(`## ${heading}\n`)))
    .join('');
  return live;
}

const LIVE_DOCUMENT = 'build/openapi-live.json';
fs.mkdirSync(path.dirname(LIVE_DOCUMENT), { recursive: true });
fs.writeFileSync(
  LIVE_DOCUMENT,
  JSON.stringify(liveDocument(JSON.parse(fs.readFileSync('generated/openapi.json', 'utf8')))),
);

const svg = (width, text) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="13" font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#6b7280">${text}</text></svg>`)}`;
const LOGOS = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svg(56, 'Redocly'),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svg(12, 'R'),
};

function buildPage(input, output) {
  execFileSync(
    path.join('node_modules', '.bin', 'redocly'),
    ['build-docs', input, '--inlineBundle', '--template', 'scripts/docs-template.hbs', '--output', output],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  let page = fs.readFileSync(output, 'utf8');
  for (const [url, inline] of Object.entries(LOGOS)) page = page.split(url).join(inline);
  const left = page.match(/https:\/\/cdn\.redoc\.ly\/[^`'"\s)]*/g);
  if (left) throw new Error(`${output} still loads from cdn.redoc.ly: ${[...new Set(left)].join(', ')}`);
  fs.writeFileSync(output, page);
}

for (const [input, output] of [
  ['generated/openapi.json', 'generated/docs.html'],
  [LIVE_DOCUMENT, 'generated/docs-live.html'],
])
  buildPage(input, output);
