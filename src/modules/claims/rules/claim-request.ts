import { createHash } from 'node:crypto';

/**
 * Binds an Idempotency-Key to one order and one body: the same key with the same order and body
 * replays the claim, anything else under it is a 409. Keys are sorted so that the order of JSON
 * fields does not matter.
 */
export function claimRequestFingerprint(orderId: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([orderId, canonical(body)]))
    .digest('hex');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, item]) => [key, canonical(item)]),
    );
  }
  return value;
}
