/**
 * The tests' one polling loop. Polls `probe` until `done` accepts its value or `timeoutMs` passes,
 * and returns the last value either way: the test's own expect then fails with what was actually
 * seen, never on a timer.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, intervalMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** What `until` is waiting for, the error says; a function when the words depend on what was seen by then. */
type Waited = string | (() => string);

/** A probe's value that means "not yet". */
type NotYet = undefined | null | false;

const arrived = <T>(value: T): value is Exclude<T, NotYet> => value !== undefined && value !== null && value !== false;

/**
 * For a wait the test cannot go on without (a cache that must have heard, a line a process must
 * have printed): polls `probe` through `eventually` until it gives something other than
 * `undefined`, `null` or `false`, and returns that; throws `timed out ... waiting for <what>`
 * when `timeoutMs` passes first.
 */
export async function until<T>(
  what: Waited,
  probe: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 100 } = {},
): Promise<Exclude<T, NotYet>> {
  const value = await eventually(probe, arrived, { timeoutMs, intervalMs });
  if (!arrived(value))
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
  return value;
}
