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
export const fieldWithNul = (root: unknown) => firstField(root, (value) => typeof value === 'string' && value.includes('\u0000'));

/**
 * Ajv's type coercion turns the query strings "Infinity" and "1e999" into Infinity, which its
 * integer check passes (also with strictNumbers); a page of Infinity is no page.
 */
export const fieldWithNonFiniteNumber = (root: unknown) => firstField(root, (value) => typeof value === 'number' && !Number.isFinite(value));

/**
 * How deep a JSON body may nest objects and arrays, the body itself being level 1 (documented in
 * the spec's conventions). Generous for `extraFields` and `dispatchInfo`, yet far below what
 * JSON.stringify and the recursive code below the handlers overflow on (6,000 levels did).
 */
export const MAX_JSON_DEPTH = 32;

/** The first object or array nested deeper than `maxDepth`, as a display field name. */
export const fieldNestedTooDeep = (root: unknown, maxDepth = MAX_JSON_DEPTH) =>
  firstField(root, (value, depth) => depth > maxDepth && value !== null && typeof value === 'object');

function firstField(root: unknown, bad: (value: unknown, depth: number) => boolean): string | undefined {
  const pending: Array<[unknown, string, number]> = [[root, '', 1]];
  while (pending.length > 0) {
    const [value, field, depth] = pending.pop()!;
    if (bad(value, depth)) return field || 'body';
    if (isRecord(value)) {
      for (const [key, child] of Object.entries(value)) {
        pending.push([child, Array.isArray(value) ? `${field}[${key}]` : field ? `${field}.${key}` : key, depth + 1]);
      }
    }
  }
  return undefined;
}
