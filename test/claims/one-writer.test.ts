import fs from 'node:fs';
import path from 'node:path';

/**
 * Decision record 0095: one function moves a claim (claim-life.ts's moveClaim), with its decision
 * per item, its payout, its timeline entry, audit entry and event. These read the source, so a
 * second writer fails here the day it is written.
 */
const SRC = path.join(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function filesWith(pattern: RegExp): string[] {
  return sourceFiles(SRC)
    .filter((file) => pattern.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(SRC, file))
    .sort();
}

const CLAIM_LIFE = [
  'status',
  'approvedTotal',
  'excessApplied',
  'declineReason',
  'decisionNote',
  'decidedAt',
  'withdrawalReason',
];

describe("a claim's life has one writer", () => {
  it('the entity exposes no writable life field: each is readonly', () => {
    const entity = fs.readFileSync(path.join(SRC, 'modules/claims/entities/claim.ts'), 'utf8');
    for (const field of CLAIM_LIFE) expect(entity).toMatch(new RegExp(`\\) readonly ${field}[?!]?:`));
  });

  it('only claims/claim-life.ts moves a claim, decides its items, records its payout and writes its timeline', () => {
    expect(filesWith(/Object\.assign\(\s*claim\b/)).toEqual(['modules/claims/claim-life.ts']);
    expect(filesWith(/create\(\s*(?:ClaimItemDecision|ClaimPayout|ClaimEntry)\b/)).toEqual([
      'modules/claims/claim-life.ts',
    ]);
    expect(filesWith(/(?:nativeUpdate|nativeInsert|upsert|assign)\(\s*Claim\b/)).toEqual([]);
    expect(filesWith(/\bupdate\s+"?claim"?\s+set\b/i)).toEqual([]);
    // Born SUBMITTED by the filing alone: as an entity (the desk billing a case), or by the partner's
    // filing's one statement with its FILED entry (decision record 0107).
    expect(filesWith(/create\(\s*Claim\b/)).toEqual(['modules/claims/claim-filing.ts']);
    expect(filesWith(/\binsert\s+into\s+"?claim(?:_entry|_item_decision|_payout)?"?\s*\(/i)).toEqual([
      'modules/claims/filing-record.ts',
    ]);
    expect(fs.readFileSync(path.join(SRC, 'modules/claims/filing-record.ts'), 'utf8')).not.toMatch(
      /insert\s+into\s+"?claim_(?:item_decision|payout)"?/i,
    );
  });
});
