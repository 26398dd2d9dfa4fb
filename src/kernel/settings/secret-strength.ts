/**
 * Secrets anyone can read: the demo partners' client secrets (README, docs, the spec's examples)
 * and the secret-like values in this repository. test/kernel/secret-strength.test.ts fails when
 * the repository holds a secret-like value this list does not cover.
 */
export const PUBLISHED_SECRETS: readonly string[] = [
  'sandbox-secret-everest-trails',
  'sandbox-secret-annapurna-adventure',
  'sandbox-secret-himalayan-sales',
  'sandbox-secret-summit-sales',
  // Their common prefix: variants of them appear in tests and docs too.
  'sandbox-secret-',
  'Qm8v2Lx9Tz4Rk7WpHc3N',
  // The contract's examples of a webhook endpoint's signing secret: public, whoever copies them.
  'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  'whsec_q2VxN0tYc2hTb3l6Qm1XZ0pQdzR4Y0FlUmt1',
];

const MIN_LENGTH = 32;

export interface StrengthRules {
  /** Production also refuses repeated patterns and published values. */
  production: boolean;
}

/** Why a gateway's HMAC secret is too weak to sign callbacks with, or undefined when it is fine. */
export function gatewaySecretWeakness(secret: string, { production }: StrengthRules): string | undefined {
  if (secret.length < MIN_LENGTH) return `must be at least ${MIN_LENGTH} characters`;
  if (!production) return undefined;
  if (repeatsAPattern(secret)) return 'is a repeated pattern; use 32 random bytes, e.g. `openssl rand -base64 32`';
  if (PUBLISHED_SECRETS.some((published) => secret.includes(published)))
    return 'contains a published secret; use 32 random bytes, e.g. `openssl rand -base64 32`';
  return undefined;
}

/** "aaaa...", "abcabc...ab", "0123456701234567...": a shorter string over and over, tail included. */
function repeatsAPattern(secret: string): boolean {
  for (let period = 1; period <= secret.length / 2; period += 1) {
    let repeats = true;
    for (let i = period; i < secret.length && repeats; i += 1) repeats = secret[i] === secret[i - period];
    if (repeats) return true;
  }
  return false;
}
