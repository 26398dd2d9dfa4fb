import { isRecord } from '../narrow';

/**
 * Inputs the schema accepts but the layers below cannot hold. Requests are checked once, after
 * routing and schema validation, before any handler runs. The walks are iterative: bodies of
 * operations without a body schema reach them unvalidated, nested 100,000 deep.
 */

/**
 * PostgreSQL text cannot hold U+0000: a NUL reaching a query fails in the driver ("invalid message
 * format"), which would be a 500 for what is the caller's mistake.
 */
export const fieldWithNul = (root: unknown) =>
  firstField(root, (value) => typeof value === 'string' && value.includes('\u0000'));

/** A UTF-16 half of a pair without its other half: no character, so not UTF-8 text and not `jsonb`. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string value holding a lone surrogate (JSON's `"\ud800"` parses to one); PostgreSQL refuses it in text and `jsonb`. */
export const fieldWithLoneSurrogate = (root: unknown) =>
  firstField(root, (value) => typeof value === 'string' && LONE_SURROGATE.test(value));

/**
 * An object key PostgreSQL cannot store in `jsonb` (`extraFields`, `dispatchInfo`): one holding a
 * NUL or a lone surrogate. Reported as the key's own path, the key printed escaped.
 */
export function keyUnstorable(root: unknown): { field: string; reason: string } | undefined {
  let reason = '';
  const field = firstField(
    root,
    () => false,
    (key) => {
      if (key.includes('\u0000')) reason = 'must not contain the NUL character in a key';
      else if (LONE_SURROGATE.test(key)) reason = 'must not contain an unpaired surrogate (no character) in a key';
      else return false;
      return true;
    },
  );
  return field === undefined ? undefined : { field, reason };
}

/**
 * A key as it may be printed in a field error: NUL, other controls and lone surrogates as `\uXXXX`,
 * so the error body is valid UTF-8 and names the key the caller sent.
 */
const printable = (key: string) =>
  key.replace(
    /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );

/**
 * Ajv's type coercion turns the query strings "Infinity" and "1e999" into Infinity, which its
 * integer check passes (also with strictNumbers); a page of Infinity is no page.
 */
export const fieldWithNonFiniteNumber = (root: unknown) =>
  firstField(root, (value) => typeof value === 'number' && !Number.isFinite(value));

/**
 * How deep a JSON body may nest objects and arrays, the body itself being level 1 (documented in
 * the spec's conventions). Generous for `extraFields` and `dispatchInfo`, yet far below what
 * JSON.stringify and the recursive code below the handlers overflow on (6,000 levels did).
 */
export const MAX_JSON_DEPTH = 32;

/** The first object or array nested deeper than `maxDepth`, as a display field name. */
export const fieldNestedTooDeep = (root: unknown, maxDepth = MAX_JSON_DEPTH) =>
  firstField(root, (value, depth) => depth > maxDepth && value !== null && typeof value === 'object');

function firstField(
  root: unknown,
  bad: (value: unknown, depth: number) => boolean,
  badKey?: (key: string) => boolean,
): string | undefined {
  const pending: Array<[unknown, string, number]> = [[root, '', 1]];
  while (pending.length > 0) {
    const [value, field, depth] = pending.pop()!;
    if (bad(value, depth)) return field || 'body';
    if (isRecord(value)) {
      for (const [key, child] of Object.entries(value)) {
        const path = Array.isArray(value) ? `${field}[${key}]` : field ? `${field}.${printable(key)}` : printable(key);
        if (badKey && !Array.isArray(value) && badKey(key)) return path;
        pending.push([child, path, depth + 1]);
      }
    }
  }
  return undefined;
}
