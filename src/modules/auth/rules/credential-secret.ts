import { hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// promisify's typing of scrypt drops the overload with options; wrapped by hand instead.
const scryptAsync = (secret: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

export interface IssuedClientSecret {
  /** Shown once to the operator; never stored. */
  secret: string;
  secretHash: string;
}

/**
 * A client secret we draw: 32 random bytes. Its 256 bits of entropy put it out of reach of any
 * dictionary or brute force, so a deliberately slow hash would add nothing but CPU to every token
 * request; it is kept as a SHA-256 digest, like access tokens (docs/decisions/0025-client-secrets-we-issue-are-kept-as-sha-256-not-scrypt.md).
 */
export function issueClientSecret(): IssuedClientSecret {
  const secret = randomBytes(32).toString('base64url');
  return { secret, secretHash: `sha256$${sha256Hex(secret)}` };
}

/** A secret a person chose (the demo partners' published ones): scrypt, as for a password. */
export async function hashChosenSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, KEY_LENGTH, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Either kind of stored hash; credentials issued before SHA-256 keep their scrypt hash. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, ...fields] = stored.split('$');
  if (scheme === 'sha256') return digestsEqual(sha256Hex(secret), fields[0] ?? '');
  if (scheme === 'scrypt') return verifyScrypt(secret, fields);
  return false;
}

function digestsEqual(actualHex: string, expectedHex: string): boolean {
  const actual = Buffer.from(actualHex, 'hex');
  const expected = Buffer.from(expectedHex, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

async function verifyScrypt(secret: string, [n, r, p, salt, key]: string[]): Promise<boolean> {
  if (salt === undefined || key === undefined) throw new Error('a stored scrypt hash lacks its salt or key');
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/**
 * One hash of each kind we store, never matching anything real (all-zero salt and key), with the
 * same parameters as the real ones so that checking against it costs the same.
 */
const DECOY_HASHES: Readonly<Record<string, string>> = {
  sha256: `sha256$${'0'.repeat(64)}`,
  scrypt: `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`,
};

/**
 * Checks a client secret against a credential's stored hash, or against none when the clientId is
 * unknown. Every failure costs one check of each hash kind (the credential's own plus decoys of
 * the others), so the time of a 401 shows neither whether the clientId exists nor how its secret
 * is stored; before, a wrong scrypt secret took about 6 times as long as an unknown clientId.
 */
export async function verifyClientSecret(secret: string, stored: string | undefined): Promise<boolean> {
  if (stored !== undefined && (await verifySecret(secret, stored))) return true;
  const checked = stored?.split('$')[0];
  for (const [scheme, decoy] of Object.entries(DECOY_HASHES)) {
    if (scheme !== checked) await verifySecret(secret, decoy);
  }
  return false;
}

/** Bearer tokens are opaque random strings; only their SHA-256 is stored. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return sha256Hex(token);
}

// The one-shot form: every authenticated request hashes its token, and a Hash object per call costs.
function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
