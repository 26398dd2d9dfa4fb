/**
 * Polls `probe` until `done` accepts its value or `timeoutMs` passes, and returns the last value
 * either way: the test's own expect then fails with what was actually seen, never on a timer.
 */
export async function eventually<T>(probe: () => T | Promise<T>, done: (value: T) => boolean, { timeoutMs = 10_000, intervalMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
