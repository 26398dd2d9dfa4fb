// Derives generated/ from spec/: the bundled document the server, Prism and Dredd load, and the
// TypeScript types handlers are written against. CI re-runs this and fails on any difference.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const bin = (name) => path.join('node_modules', '.bin', name);
fs.mkdirSync('generated', { recursive: true });
execFileSync(bin('redocly'), ['bundle', 'spec/openapi.yaml', '--output', 'generated/openapi.json', '--ext', 'json'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
// Pretty, stable JSON so diffs of generated/ are readable in review.
const bundled = JSON.parse(fs.readFileSync('generated/openapi.json', 'utf8'));
fs.writeFileSync('generated/openapi.json', `${JSON.stringify(bundled, null, 2)}\n`);
execFileSync(bin('openapi-typescript'), ['generated/openapi.json', '--output', 'generated/api.d.ts', '--alphabetize'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
// The typed client is a package of its own: it carries the same types inside it (as a .ts module,
// so its build emits them into dist/ beside the code that imports them).
const CLIENT_TYPES = 'clients/typescript/src/generated/api.ts';
fs.mkdirSync(path.dirname(CLIENT_TYPES), { recursive: true });
fs.writeFileSync(
  CLIENT_TYPES,
  `// Copied from generated/api.d.ts by npm run generate: do not edit.\n${fs.readFileSync('generated/api.d.ts', 'utf8')}`,
);
// The events a partner receives, one member per entry of the contract's `webhooks`, told apart by
// `type` (each event schema fixes it with `const`): a handler switches on it without a cast.
const WEBHOOK_EVENTS = 'clients/typescript/src/generated/webhook-events.ts';
const events = Object.entries(bundled.webhooks).map(([type, webhook]) => {
  const ref = webhook.post?.requestBody?.content?.['application/json']?.schema?.$ref;
  if (!ref?.startsWith('#/components/schemas/'))
    throw new Error(`webhook ${type} has no request body schema in components`);
  return { type, schema: ref.slice('#/components/schemas/'.length) };
});
fs.writeFileSync(
  WEBHOOK_EVENTS,
  [
    '// Derived from the webhooks of generated/openapi.json by npm run generate: do not edit.',
    "import type { components } from './api';",
    '',
    "type Schemas = components['schemas'];",
    '',
    '/** Every event the service sends to your endpoints; switch on `type` to read its `data`. */',
    'export type WebhookEvent =',
    ...events.map(({ schema }, index) => `  | Schemas['${schema}']${index === events.length - 1 ? ';' : ''}`),
    '',
    "/** The event of one type: `WebhookEventOf<'order.paid'>`. */",
    "export type WebhookEventOf<Type extends WebhookEvent['type']> = Extract<WebhookEvent, { type: Type }>;",
    '',
    '/** Every event type, as the contract lists them. */',
    "export const WEBHOOK_EVENT_TYPES: ReadonlyArray<WebhookEvent['type']> = [",
    ...events.map(({ type }) => `  '${type}',`),
    '];',
    '',
  ].join('\n'),
);
console.log(
  `generated/openapi.json, generated/api.d.ts, ${CLIENT_TYPES} and ${WEBHOOK_EVENTS} are up to date with spec/`,
);
