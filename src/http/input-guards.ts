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

function firstField(root: unknown, bad: (value: unknown) => boolean): string | undefined {
  const pending: Array<[unknown, string]> = [[root, '']];
  while (pending.length > 0) {
    const [value, field] = pending.pop()!;
    if (bad(value)) return field || 'body';
    if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
        pending.push([child, Array.isArray(value) ? `${field}[${key}]` : field ? `${field}.${key}` : key]);
      }
    }
  }
  return undefined;
}
