import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import type { WireJson } from '../support/http-client';

/**
 * Every free-text field a partner sends as JSON refuses control characters through a documented
 * `pattern` (issue 14: a traveller name with a newline and escape sequences reached the operator's
 * terminal). Fields whose `format`, `enum` or strict pattern already excludes them need nothing more;
 * the credential fields of POST /auth/token are never shown to anyone.
 */
type Schema = Record<string, WireJson>;

const document = loadSpecDocument() as Schema;
const EXEMPT = new Set(['TokenRequest.clientId', 'TokenRequest.clientSecret']);
// Issue 30: U+2028/U+2029 and the bidirectional controls reshaped printed certificates as C0/C1 did.
// Issue 40: the direction marks (LRM, RLM, ALM) and the zero-width space, word joiner and BOM
// reorder or hide text as well; ZWNJ and ZWJ stay allowed, Devanagari and Persian names need them.
const HOSTILE = [
  'a\nb',
  'a\u001b[31mb',
  'a\u009b2Jb',
  'a\u0000b',
  'a\u007fb',
  'a\u2028b',
  'a\u2029b',
  'a\u202Eb',
  'a\u202Ab',
  'a\u2066b',
  'a\u2069b',
  'a\u200Eb',
  'a\u200Fb',
  'a\u061Cb',
  'a\u200Bb',
  'a\u2060b',
  'a\uFEFFb',
];

function resolve(node: Schema): Schema {
  if (typeof node?.$ref !== 'string') return node;
  const target = node.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((at: Schema, key: string) => at[key], document);
  return resolve(target);
}

/** [field name, string schema] for every string a request body can carry, by its schema's name. */
function* stringFields(node: Schema, name: string, seen = new Set<Schema>()): Generator<[string, Schema]> {
  const schema = resolve(node);
  if (!schema || seen.has(schema)) return;
  seen.add(schema);
  const here = typeof node?.$ref === 'string' ? node.$ref.split('/').pop() : name;
  if (schema.type === 'string') yield [name, schema];
  for (const [key, child] of Object.entries<Schema>(schema.properties ?? {}))
    yield* stringFields(child, `${here ?? name}.${key}`, seen);
  if (schema.items) yield* stringFields(schema.items, `${here ?? name}[]`, seen);
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    yield* stringFields(branch, here ?? name, seen);
}

const requestStrings = Object.values<Schema>(document.paths).flatMap((item) =>
  ['post', 'put', 'patch', 'delete'].flatMap((method) => {
    const schema = item[method]?.requestBody?.content?.['application/json']?.schema;
    return schema && item[method].operationId !== 'handlePaymentCallback'
      ? [...stringFields(schema, item[method].operationId)]
      : [];
  }),
);

describe('partner text fields in the OpenAPI document', () => {
  it('keeps the joiners a Devanagari or Persian name needs (ZWNJ, ZWJ) in a traveller name', () => {
    const name = requestStrings.find(([field]) => field === 'TravellerInput.name');
    const pattern = new RegExp(name?.[1].pattern, 'u');
    expect(pattern.test('\u0915\u094D\u200D\u0937 \u0645\u06CC\u200C\u0631\u0648\u0645')).toBe(true);
  });

  it('finds the traveller, order, agency, item, quote and promo text fields', () => {
    const names = requestStrings.map(([name]) => name);
    expect(names).toEqual(
      expect.arrayContaining([
        'TravellerInput.name',
        'OrderInput.customRouteName',
        'CustomTravelAgency.name',
        'AddedItem.name',
        'QuoteRequest.nationality',
        'PromoRequest.promoCode',
      ]),
    );
  });

  it.each(
    requestStrings.filter(
      ([name, schema]) => !EXEMPT.has(name) && !schema.enum && !schema.format && schema.const === undefined,
    ),
  )('%s refuses control characters with a documented pattern', (_name, schema) => {
    expect(typeof schema.pattern).toBe('string');
    const pattern = new RegExp(schema.pattern, 'u');
    for (const hostile of HOSTILE.filter(
      (text) => !(/\n/.test(text) && /line breaks/.test(schema['x-pattern-message'] ?? '')),
    )) {
      expect(pattern.test(hostile)).toBe(false);
    }
  });
});
