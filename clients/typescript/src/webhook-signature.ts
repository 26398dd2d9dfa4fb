import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './generated/webhook-events';

/** A delivery that is not provably from the service (or too old to trust): answer it 400 and do nothing. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** How far a delivery's `webhook-timestamp` may be from now: older (or future) ones could be replays. */
const TOLERANCE_SECONDS = 5 * 60;

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

function header(headers: Headers, name: string): string {
  const value =
    headers instanceof globalThis.Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookVerificationError(`missing ${name} header`);
  return text;
}

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with your endpoint's `whsec_` secret, over the raw body exactly as received
 * (not re-serialised JSON), and answers the event, typed by its `type`. During a secret rotation's
 * overlap a delivery carries a signature under each secret: either verifies. The official
 * `standardwebhooks` library accepts the same deliveries.
 */
export function verifyWebhook(
  secret: string,
  headers: Headers,
  rawBody: string,
  now: () => number = Date.now,
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds) || Math.abs(now() / 1000 - seconds) > TOLERANCE_SECONDS)
    throw new WebhookVerificationError('webhook-timestamp is missing or too far from now');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no webhook-signature matches the secret');
  return JSON.parse(rawBody) as WebhookEvent;
}
