import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_PARTNERS } from '../../src/modules/partners/demo-partners';
import { gatewaySecretWeakness, PUBLISHED_SECRETS } from '../../src/kernel/settings/secret-strength';
import { captured } from '../support/elements';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Quoted values that look like secrets, in every tracked text file, on lines that mention a
 * secret: a chosen one ("sandbox-secret-...") or a random-looking one (letters of both cases and
 * digits). Names such as CARD_GATEWAY_SECRET or hashChosenSecret are neither.
 */
function secretsWrittenInRepository(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file && !file.startsWith('package-lock') && fs.existsSync(path.join(ROOT, file)));
  const values = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    if (text.includes('\u0000')) continue;
    for (const line of text.split('\n').filter((candidate) => /secret/i.test(candidate))) {
      for (const match of line.matchAll(/['"`]([A-Za-z0-9_+=-]{16,})['"`]/g)) {
        const value = captured(match, 1);
        const chosen = /secret/i.test(value) && value.includes('-');
        const random = /[a-z]/.test(value) && /[A-Z]/.test(value) && /[0-9]/.test(value);
        if (chosen || random) values.add(value);
      }
    }
  }
  return [...values];
}

describe('gateway secret strength in production', () => {
  it('covers every demo partner secret', () => {
    for (const partner of DEMO_PARTNERS) expect(PUBLISHED_SECRETS).toContain(partner.clientSecret);
  });

  it('refuses every secret written in this repository, also padded to 32 characters with random ones', () => {
    const written = secretsWrittenInRepository();
    expect(written).toEqual(expect.arrayContaining(['sandbox-secret-everest-trails', 'Qm8v2Lx9Tz4Rk7WpHc3N']));
    const padding = randomBytes(24).toString('base64url');
    const accepted = written.filter(
      (value) => gatewaySecretWeakness(`${value}${padding}`, { production: true }) === undefined,
    );
    expect(accepted).toEqual([]);
  });

  it('accepts 32 random bytes, and outside production anything of 32 characters', () => {
    // Drawn here: a strong secret written into the repository would be a published one.
    expect(gatewaySecretWeakness(randomBytes(32).toString('base64url'), { production: true })).toBeUndefined();
    expect(gatewaySecretWeakness('x'.repeat(43), { production: false })).toBeUndefined();
  });
});
