import crypto from 'node:crypto';
import {
  hashChosenSecret,
  issueClientSecret,
  verifyClientSecret,
  verifySecret,
} from '../../src/modules/auth/rules/credential-secret';

describe('client secrets', () => {
  it('issues 32 random bytes, base64url, and keeps only their SHA-256', async () => {
    const issued = issueClientSecret();
    expect(Buffer.from(issued.secret, 'base64url')).toHaveLength(32);
    expect(issued.secretHash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(issued.secretHash).not.toContain(issued.secret);
    expect(issueClientSecret().secret).not.toBe(issued.secret);
  });

  it('accepts the issued secret and rejects any other, also one differing in a single character', async () => {
    const issued = issueClientSecret();
    expect(await verifySecret(issued.secret, issued.secretHash)).toBe(true);
    const flipped = (issued.secret[0] === 'A' ? 'B' : 'A') + issued.secret.slice(1);
    expect(await verifySecret(flipped, issued.secretHash)).toBe(false);
    expect(await verifySecret('', issued.secretHash)).toBe(false);
  });

  it('keeps accepting a secret stored with scrypt (chosen secrets, credentials issued before SHA-256)', async () => {
    const stored = await hashChosenSecret('sandbox-secret-everest-trails');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifySecret('sandbox-secret-everest-trails', stored)).toBe(true);
    expect(await verifySecret('sandbox-secret-everest-trail', stored)).toBe(false);
  });

  it('rejects every secret for an unknown clientId, and accepts a right one of either kind', async () => {
    expect(await verifyClientSecret('', undefined)).toBe(false);
    expect(await verifyClientSecret(issueClientSecret().secret, undefined)).toBe(false);
    const issued = issueClientSecret();
    expect(await verifyClientSecret(issued.secret, issued.secretHash)).toBe(true);
    expect(
      await verifyClientSecret(
        'sandbox-secret-everest-trails',
        await hashChosenSecret('sandbox-secret-everest-trails'),
      ),
    ).toBe(true);
  });

  // What makes a refusal take the same time (measured by `npm run bench:token-refusal`): the same
  // hashing work, whether the clientId exists and however its secret is stored.
  it('refuses a wrong secret with one scrypt and one SHA-256 check, for an unknown clientId and for a secret stored either way', async () => {
    const stored = {
      unknown: undefined,
      sha256: issueClientSecret().secretHash,
      scrypt: await hashChosenSecret('sandbox-secret-everest-trails'),
    };
    const scrypt = jest.spyOn(crypto, 'scrypt');
    const hash = jest.spyOn(crypto, 'hash');
    const workOfRefusing = async (secretHash: string | undefined) => {
      scrypt.mockClear();
      hash.mockClear();
      expect(await verifyClientSecret('wrong-secret', secretHash)).toBe(false);
      return {
        scrypt: scrypt.mock.calls.length,
        sha256: hash.mock.calls.filter(([algorithm]) => algorithm === 'sha256').length,
      };
    };
    try {
      for (const secretHash of Object.values(stored))
        expect(await workOfRefusing(secretHash)).toEqual({ scrypt: 1, sha256: 1 });
    } finally {
      scrypt.mockRestore();
      hash.mockRestore();
    }
  });

  it('rejects against a stored hash of an unknown scheme or a cut-off digest', async () => {
    const issued = issueClientSecret();
    expect(await verifySecret(issued.secret, issued.secretHash.replace('sha256', 'md5'))).toBe(false);
    expect(await verifySecret(issued.secret, issued.secretHash.slice(0, -2))).toBe(false);
  });
});
