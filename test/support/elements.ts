/**
 * Indexed reads a test relies on. Under noUncheckedIndexedAccess `rows[0]` may be undefined; when a
 * test needs the element to be there, its absence should fail the test saying which element was
 * missing, not as a TypeError a few lines later.
 */

/** The element at `index` (negative counts from the end), which must be there. */
export function at<T>(items: readonly T[], index: number, what = 'the list'): T {
  const item = items.at(index);
  if (item === undefined) throw new Error(`${what} has no element at ${index} (it has ${items.length})`);
  return item;
}

export const first = <T>(items: readonly T[], what?: string): T => at(items, 0, what);

export const last = <T>(items: readonly T[], what?: string): T => at(items, -1, what);

/** The text a regular expression's group captured, which must have taken part in the match. */
export function captured(match: RegExpMatchArray | null, group: number, what = 'the pattern'): string {
  if (match === null) throw new Error(`${what} did not match`);
  const text = match[group];
  if (text === undefined) throw new Error(`${what} captured nothing in group ${group}`);
  return text;
}
