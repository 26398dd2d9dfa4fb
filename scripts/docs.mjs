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

const OUTPUT = 'generated/docs.html';
execFileSync(
  path.join('node_modules', '.bin', 'redocly'),
  [
    'build-docs',
    'generated/openapi.json',
    '--inlineBundle',
    '--template',
    'scripts/docs-template.hbs',
    '--output',
    OUTPUT,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);

const svg = (width, text) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16"><text x="0" y="13" font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#6b7280">${text}</text></svg>`)}`;
const LOGOS = {
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg': svg(56, 'Redocly'),
  'https://cdn.redoc.ly/redoc/logo-mini.svg': svg(12, 'R'),
};

let page = fs.readFileSync(OUTPUT, 'utf8');
for (const [url, inline] of Object.entries(LOGOS)) page = page.split(url).join(inline);
const left = page.match(/https:\/\/cdn\.redoc\.ly\/[^`'"\s)]*/g);
if (left) throw new Error(`${OUTPUT} still loads from cdn.redoc.ly: ${[...new Set(left)].join(', ')}`);
fs.writeFileSync(OUTPUT, page);
