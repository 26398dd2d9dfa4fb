import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * eSewa ePay v2 signatures (developer.esewa.com.np, "Epay-V2"): HMAC-SHA256 in base64 over the
 * fields named by `signed_field_names`, written `name=value` and joined with commas in that order.
 * The request signs `total_amount,transaction_uuid,product_code`; the success `data` signs the
 * fields its own `signed_field_names` lists.
 */
export function esewaSignature(
  fields: Readonly<Record<string, unknown>>,
  signedFieldNames: string,
  secret: string,
): string {
  const message = signedFieldNames
    .split(',')
    .map((name) => `${name}=${fieldText(fields[name])}`)
    .join(',');
  return createHmac('sha256', secret).update(message, 'utf8').digest('base64');
}

export function esewaSignatureMatches(fields: Readonly<Record<string, unknown>>, secret: string): boolean {
  const names = fields.signed_field_names;
  const given = fields.signature;
  if (typeof names !== 'string' || names === '' || typeof given !== 'string') return false;
  // The signature must cover the facts we act on, not just any subset the sender chose.
  const covered = names.split(',');
  if (!['status', 'total_amount', 'transaction_uuid', 'product_code'].every((name) => covered.includes(name)))
    return false;
  const expected = Buffer.from(esewaSignature(fields, names, secret));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A field as the form carries it; a missing one signs as empty. */
function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  // Fields are strings and numbers on the wire; an object would be a bug, signed as JSON rather than "[object Object]".
  return value === undefined || value === null ? '' : (JSON.stringify(value) ?? '');
}
