import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
 * `<webhook-id>.<webhook-timestamp>.<body>`, HMAC-SHA256 under the secret's base64-decoded bytes,
 * sent as `v1,<base64 signature>`; several signatures (a rotation's overlap) are space-separated.
 * Partners verify with the published libraries, so this must agree with them byte for byte.
 */
const PREFIX = 'whsec_';

/** A new endpoint secret: 32 random bytes, shown to the operator once. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of one delivery, signed under every secret given (current first). */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
    return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  });
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
