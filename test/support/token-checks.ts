import type { RunningServer } from '../../src/server';
import { until } from './eventually';

/**
 * Runs a change that ends tokens (written straight to the database) and waits until the server's
 * bearer-check cache has heard its NOTIFY: a revocation reaches a running server within the
 * notification's delay, not before the writer's next line (docs/decisions/0045-quote-and-booking-flow-performance-on-node-24.md).
 */
export async function revokedAndHeard<T>(
  server: Pick<RunningServer, 'tokenChecks'>,
  change: () => Promise<T>,
  timeoutMs = 5000,
): Promise<T> {
  const before = server.tokenChecks.currentGeneration;
  const result = await change();
  await until(
    'the server to hear the change',
    () => !server.tokenChecks.isListening || server.tokenChecks.currentGeneration !== before,
    { timeoutMs, intervalMs: 5 },
  );
  return result;
}
