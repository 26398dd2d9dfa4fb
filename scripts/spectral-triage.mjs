// `npm run lint:owasp`: runs Spectral (spectral:oas + the OWASP ruleset, see .spectral.yaml) over
// generated/openapi.json and holds every finding to the triage below. Each accepted finding is a
// rule in a place where docs/decisions/0044-spectral-and-the-owasp-ruleset-prism-over-the-postman-story.md says why it does not
// apply; anything else, including a new finding in an accepted rule somewhere else, fails.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCUMENT = path.join(ROOT, 'generated/openapi.json');

/** rule -> where it is accepted (see contextOf) and the one-line reason. */
const ACCEPTED = [
  [
    'owasp:api4:2023-string-limit',
    ['response', 'webhook'],
    'written by the service from validated input, not read from a partner',
  ],
  [
    'owasp:api4:2023-string-restricted',
    ['response', 'webhook'],
    'written by the service from validated input, not read from a partner',
  ],
  [
    'owasp:api4:2023-string-limit',
    ['provider-return'],
    'a payment provider defines these values; refusing them strands the customer',
  ],
  [
    'owasp:api4:2023-string-restricted',
    ['provider-return'],
    'a payment provider defines these values; refusing them strands the customer',
  ],
  [
    'owasp:api4:2023-string-limit',
    ['policy-number'],
    'the contract answers any malformed number with the not-found page',
  ],
  [
    'owasp:api4:2023-string-restricted',
    ['policy-number'],
    'the contract answers any malformed number with the not-found page',
  ],
  [
    'owasp:api4:2023-string-restricted',
    ['order-reference'],
    'references are opaque lookup keys; the contract answers an unknown one 404',
  ],
  ['owasp:api4:2023-integer-limit', ['page-size'], 'the contract clamps any size above 100 rather than refusing it'],
  ['owasp:api4:2023-integer-limit', ['page-number'], 'a page past the end, however far, is an empty page by contract'],
  [
    'owasp:api4:2023-rate-limit',
    ['response'],
    'limits are per company and per window, told by 429 with Retry-After only',
  ],
  [
    'owasp:api4:2023-rate-limit-responses-429',
    ['response'],
    'only writes, tokens, certificates and verification are limited',
  ],
  [
    'owasp:api8:2023-define-cors-origin',
    ['response', 'headers'],
    'server-to-server API: no CORS, so browsers may not call it',
  ],
  ['owasp:api8:2023-define-error-responses-401', ['response'], 'public operations: they take no credentials'],
  ['owasp:api8:2023-define-error-validation', ['response'], 'probes and metrics take no input to refuse'],
  [
    'owasp:api2:2023-read-restricted',
    ['public-operation'],
    'public by design: health, metrics, verification, provider returns',
  ],
  ['owasp:api2:2023-write-restricted', ['public-operation'], 'the token endpoint is how a partner authenticates'],
];

function lint() {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spectral-')), 'findings.json');
  try {
    execFileSync(
      process.env.SPECTRAL_BIN ?? path.join(ROOT, 'node_modules/.bin/spectral'),
      ['lint', DOCUMENT, '-r', path.join(ROOT, '.spectral.yaml'), '-f', 'json', '-o', out, '-q'],
      { stdio: 'inherit' },
    );
  } catch {
    // Spectral exits 1 whenever it finds an error; the findings file is what counts.
  }
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

/** Component names reachable from each part of the document. */
function reachable(document) {
  const reach = (roots) => {
    const seen = new Set();
    const walk = (node) => {
      if (!node || typeof node !== 'object') return;
      const match = typeof node.$ref === 'string' && node.$ref.match(/^#\/components\/([^/]+)\/(.+)$/);
      if (match && !seen.has(`${match[1]}/${match[2]}`)) {
        seen.add(`${match[1]}/${match[2]}`);
        walk(document.components[match[1]][match[2]]);
      }
      for (const child of Object.values(node)) walk(child);
    };
    roots.forEach(walk);
    return seen;
  };
  const operations = Object.values(document.paths).flatMap((item) =>
    Object.values(item).filter((op) => op && typeof op === 'object' && !Array.isArray(op) && op.responses),
  );
  const pathParameters = Object.values(document.paths).map((item) => item.parameters);
  return {
    request: reach([...pathParameters, ...operations.flatMap((op) => [op.parameters, op.requestBody])]),
    response: reach(operations.map((op) => op.responses)),
    webhook: reach([document.webhooks]),
  };
}

function contextOf(finding, document, refs) {
  const [root, first, second] = finding.path;
  if (root === 'paths') {
    if (finding.code.startsWith('owasp:api2')) return 'public-operation';
    if (finding.path.includes('responses')) return 'response';
    if (first.startsWith('/api/external/payment/response')) return 'provider-return';
    if (first.startsWith('/verify/')) return 'policy-number';
    return 'request';
  }
  if (root === 'webhooks') return 'webhook';
  if (root === 'components' && !second) return first;
  const key = `${first}/${second}`;
  if (['parameters/OrderRef', 'parameters/GroupRef'].includes(key)) return 'order-reference';
  if (key === 'parameters/Size') return 'page-size';
  if (key === 'parameters/Page' || finding.path.at(-1) === 'page') return 'page-number';
  const places = ['request', 'response', 'webhook'].filter((place) => refs[place].has(key));
  return places.length === 1 ? places[0] : places.join('+') || 'unreferenced';
}

const document = JSON.parse(fs.readFileSync(DOCUMENT, 'utf8'));
const refs = reachable(document);
const findings = lint();
const tally = new Map();
const untriaged = [];
for (const finding of findings) {
  const context = contextOf(finding, document, refs);
  // A schema both answered and sent as a webhook body (an event read back with GET /events) is
  // accepted where the rule is accepted in each of its places, for the same reason.
  const rule = ACCEPTED.find(
    ([code, contexts]) => code === finding.code && context.split('+').every((place) => contexts.includes(place)),
  );
  if (!rule) {
    untriaged.push(`${finding.code} (${context}) at ${finding.path.join('.')}: ${finding.message}`);
    continue;
  }
  const key = `${rule[0]} in ${context}: ${rule[2]}`;
  tally.set(key, (tally.get(key) ?? 0) + 1);
}
for (const [key, count] of [...tally].sort()) console.log(`${String(count).padStart(4)}  ${key}`);
console.log(
  `${findings.length} findings, ${findings.length - untriaged.length} accepted as not applicable, ${untriaged.length} untriaged`,
);
if (untriaged.length > 0) {
  console.error(untriaged.join('\n'));
  process.exit(1);
}
