import fc from 'fast-check';
import type { WireJson } from '../support/http-client';

/** A JSON Schema node of the OpenAPI 3.1 document, loosely typed: the generator reads what it knows. */
export type SchemaNode = Record<string, WireJson>;

/**
 * Strings an attacker tries on every field: SQL and script payloads, path traversal, format
 * confusion, control characters, unicode that breaks naive length or byte handling.
 */
export const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE orders; --",
  '1; SELECT pg_sleep(5)--',
  "\\'; COPY (SELECT '') TO PROGRAM 'id'; --",
  '" OR ""="',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '....//....//etc/passwd',
  '/etc/passwd\u0000.png',
  '\u0000',
  '\r\nSet-Cookie: pwned=1',
  '\uFEFF',
  '\uD800',
  '\uDFFF\uD800',
  '𝕳𝖊𝖑𝖑𝖔 🏔️ नमस्ते',
  'ﷺ'.repeat(50),
  'Z̵̡̛͉̗̤̰̮͈͇̥̳̈́̍̌̂͐̑̕͠a̷l̴g̶o̸',
  '\u202Egnp.exe',
  // Text that acts on a terminal (issue 14): forged lines, ANSI/OSC/C1 sequences.
  'Anna Weber\nORD-2026-000001  PAID',
  '\u001b[2J\u001b[31mPAID\u001b[0m',
  '\u001b]0;owned\u0007',
  '\u009b31m',
  'x\u007f\u0085\u2028y',
  // Text that reshapes printed documents (issue 30): separators and bidirectional controls.
  'Lukla\u2028COVER: ALL ACTIVITIES, NO LIMIT',
  'Lukla\u2029',
  '\u202Aleft\u202C \u202Bright\u202C \u202Doverride\u202C',
  'name \u2066isolated\u2069 \u2067rtl\u2069 \u2068first\u2069',
  // Lone surrogates inside text (issue 30): no character, and PostgreSQL refuses them in text and jsonb.
  'half \uD83C of a pair',
  'trailing \uDC00',
  '\uDBFF\uDBFF',
  // Dates at and past the edges of what PostgreSQL and the contract take.
  '9999-12-20',
  '9999-12-31',
  '0001-01-01',
  '1899-12-31',
  '2099-12-31',
  '2100-01-01',
  '275760-09-13',
  '-001000-01-01',
  '%00',
  '%',
  '%%%%',
  '%u0000',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9'.repeat(400),
  '99999999999999999999',
  '1e20',
  '-9223372036854775809',
  'null',
  'true',
  '[]',
  '{}',
  '',
  ' ',
  '\t\n',
  'ORD-2026-000001',
  'ORD-0000-000000-99999999999999999999',
  'GRP-2026-000001',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

/**
 * Object keys PostgreSQL cannot store in `jsonb` (issue 30: NUL and lone surrogates in keys
 * answered 500), and keys that carry the separators and controls text fields refuse.
 */
export const HOSTILE_KEYS = [
  'k\u0000',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00',
  '\uDBFF\uDBFF',
  '\u2028',
  'k\u202E',
  '\u2066k\u2069',
  '__proto__',
  '',
];

export function hostileKey(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  );
}

/** A free-form JSON object (`extraFields`, `dispatchInfo`) whose keys and values are hostile, one level nested now and then. */
function hostileObject(): fc.Arbitrary<Record<string, unknown>> {
  const flat = fc.dictionary(hostileKey(), hostileString(), { maxKeys: 3 });
  return fc.oneof(flat, fc.dictionary(hostileKey(), flat, { maxKeys: 2 }));
}

/** Hostile strings plus random unicode and the occasional huge one. */
export function hostileString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 24, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 8, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    // Huge strings are rare per field, but a request has many fields, so most runs see them often.
    { weight: 1, arbitrary: fc.constantFrom(5_000, 20_000, 200_000).map((n) => 'A'.repeat(n)) },
  );
}

/** Any JSON value of any type: what a field receives when the caller ignores its type. */
export function wrongTypedValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -1e308,
      Number.MAX_SAFE_INTEGER,
      2 ** 63,
      '',
      [],
      {},
      [null],
      { $gt: '' },
      { __proto__: { admin: true } },
    ),
    // Just past and far past the documented money maximums (1,000,000.00 per item; numeric(14,2) columns).
    fc.constantFrom(1_000_000.01, 6_000_000_000, 99_999_999_999, 1e12, 1e13 + 0.01),
    hostileString(),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  );
}

/** Resolves `$ref`s against the document. */
export class SchemaResolver {
  constructor(private readonly document: WireJson) {}

  resolve(node: SchemaNode | undefined): SchemaNode {
    let current = node ?? {};
    for (let hops = 0; current.$ref && hops < 20; hops++) {
      const path = String(current.$ref).replace(/^#\//, '').split('/');
      current =
        path.reduce((at: WireJson, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.document) ?? {};
    }
    return current;
  }

  /** Values that satisfy the schema (as far as formats and patterns go, mostly). */
  valid(node: SchemaNode | undefined, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(node);
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.oneOf || schema.anyOf)
      return fc.oneof(...(schema.oneOf ?? schema.anyOf).map((s: SchemaNode) => this.valid(s, depth + 1)));
    if (schema.allOf) {
      return fc
        .tuple(...schema.allOf.map((s: SchemaNode) => this.valid(s, depth + 1)))
        .map((parts) => Object.assign({}, ...parts.filter((p) => p && typeof p === 'object')));
    }
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
    switch (type) {
      case 'string':
        return this.validString(schema);
      case 'integer':
        return this.atBounds(
          schema,
          fc.integer({
            min: schema.minimum ?? -1000,
            max: schema.maximum ?? Math.max((schema.minimum ?? 0) + 1000, 1000),
          }),
        );
      case 'number':
        return this.atBounds(
          schema,
          fc
            .double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true })
            .map((n) => Math.round(n * 100) / 100),
        );
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const min = schema.minItems ?? 0;
        const max = Math.min(schema.maxItems ?? min + 3, min + 3);
        if (depth > 6) return fc.constant([]);
        const short = fc.array(this.valid(schema.items, depth + 1), { minLength: min, maxLength: max });
        // Now and then a list as long as it may be (up to 20 items), so totals reach their documented maximums.
        if (!schema.maxItems || schema.maxItems <= max || schema.maxItems > 20) return short;
        return fc.oneof(
          { weight: 5, arbitrary: short },
          {
            weight: 1,
            arbitrary: fc.array(this.valid(schema.items, depth + 1), {
              minLength: schema.maxItems,
              maxLength: schema.maxItems,
            }),
          },
        );
      }
      case 'null':
        return fc.constant(null);
      default: {
        if (depth > 6) return fc.constant({});
        const properties: Record<string, SchemaNode> = schema.properties ?? {};
        const required = new Set<string>(schema.required ?? []);
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, child] of Object.entries(properties)) {
          if (this.resolve(child).readOnly) continue;
          model[name] = this.valid(child, depth + 1);
        }
        // A free-form object takes any keys: now and then ones PostgreSQL or a document cannot take.
        if (Object.keys(model).length === 0 && schema.additionalProperties === true) {
          return fc.oneof(
            {
              weight: 3,
              arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
            },
            { weight: 1, arbitrary: hostileObject() },
          );
        }
        return fc.record(model, { requiredKeys: Object.keys(model).filter((name) => required.has(name)) });
      }
    }
  }

  /** A bounded number is now and then exactly at its bound: the largest valid amounts meet in one total. */
  private atBounds(schema: SchemaNode, inside: fc.Arbitrary<number>): fc.Arbitrary<number> {
    const bounds = [schema.minimum, schema.maximum].filter((bound): bound is number => typeof bound === 'number');
    return bounds.length === 0
      ? inside
      : fc.oneof({ weight: 4, arbitrary: inside }, { weight: 1, arbitrary: fc.constantFrom(...bounds) });
  }

  private validString(schema: SchemaNode): fc.Arbitrary<string> {
    switch (schema.format) {
      case 'uuid':
        return fc.uuid();
      case 'date':
        return fc
          .date({ min: new Date('1930-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      case 'date-time':
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'email':
        return fc.emailAddress();
      case 'uri':
        return fc.webUrl({ validSchemes: ['https'] });
      default:
        break;
    }
    if (schema.pattern) {
      try {
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
      } catch {
        /* a pattern fast-check cannot read: fall back to plain strings */
      }
    }
    return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 60) });
  }

  /**
   * A value that breaks the schema somewhere: a required field dropped, a field of the wrong
   * type, a hostile or huge string in a field, unknown fields, or the whole value replaced.
   */
  invalid(node: SchemaNode | undefined): fc.Arbitrary<unknown> {
    return this.valid(node).chain((value) => mutate(value));
  }
}

/** Every path to a field inside a JSON value, for targeted mutation. */
function fieldPaths(
  value: unknown,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const path = [...prefix, Array.isArray(value) ? Number(key) : key];
      out.push(path);
      if (out.length < 200) fieldPaths(child, path, out);
    }
  }
  return out;
}

/** The paths (among `paths`) at which `value` holds a plain object, where a key can be added. */
function objectPaths(value: unknown, paths: (string | number)[][]): (string | number)[][] {
  return paths.filter((p) => {
    const at = p.reduce((node: WireJson, key) => node?.[key], value);
    return at !== null && typeof at === 'object' && !Array.isArray(at);
  });
}

/** `value` with `key: child` added to the object at `path` (the root when empty), keys such as `__proto__` included. */
function withKey(value: unknown, path: (string | number)[], key: string, child: unknown): unknown {
  const copy = structuredClone(value) as WireJson;
  const at = path.reduce((node: WireJson, step) => node?.[step], copy);
  if (at !== null && typeof at === 'object' && !Array.isArray(at))
    Object.defineProperty(at, key, { value: child, enumerable: true, writable: true, configurable: true });
  return copy;
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown, remove = false): unknown {
  const copy = structuredClone(value) as WireJson;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  const last = path[path.length - 1];
  if (last === undefined) throw new Error('a field path is never empty');
  if (remove) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = replacement;
  return copy;
}

export function mutate(value: unknown): fc.Arbitrary<unknown> {
  const paths = fieldPaths(value);
  const whole = wrongTypedValue();
  if (paths.length === 0) return whole;
  const path = fc.constantFrom(...paths);
  return fc.oneof(
    { weight: 3, arbitrary: fc.tuple(path, wrongTypedValue()).map(([p, v]) => setAt(value, p, v)) },
    { weight: 2, arbitrary: path.map((p) => setAt(value, p, undefined, true)) },
    { weight: 3, arbitrary: fc.tuple(path, hostileString()).map(([p, v]) => setAt(value, p, v)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('__proto__', 'constructor', 'extra', 'password', 'x'.repeat(300)), wrongTypedValue())
        .map(([key, v]) => {
          const copy = structuredClone(value) as WireJson;
          if (copy && typeof copy === 'object' && !Array.isArray(copy))
            Object.defineProperty(copy, key, { value: v, enumerable: true, writable: true, configurable: true });
          return copy;
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom<(string | number)[]>([], ...objectPaths(value, paths)), hostileKey(), hostileString())
        .map(([p, key, v]) => withKey(value, p, key, v)),
    },
    { weight: 1, arbitrary: whole },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 120 }).map((n) => Array.from({ length: n }, () => value)) },
  );
}
