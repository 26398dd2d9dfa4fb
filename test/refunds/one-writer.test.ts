import fs from 'node:fs';
import path from 'node:path';

/**
 * Decision record 0075: one function writes a refund's life, one writes Order ->
 * CANCELLED. These read the source, so a second writer fails here the day it is written.
 */
const SRC = path.join(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The files (relative to src/) in which `pattern` occurs. */
function filesWith(pattern: RegExp): string[] {
  return sourceFiles(SRC)
    .filter((file) => pattern.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(SRC, file))
    .sort();
}

const REFUND_LIFE = [
  'status',
  'provider',
  'providerRefundRef',
  'tries',
  'outcomeUnknown',
  'nextTryAt',
  'claimedUntil',
  'lastError',
  'completedAt',
  'note',
];

describe("a refund's life has one writer", () => {
  it('the entity exposes no writable life field: each is readonly', () => {
    const entity = fs.readFileSync(path.join(SRC, 'modules/refunds/entities/refund.ts'), 'utf8');
    for (const field of REFUND_LIFE) expect(entity).toMatch(new RegExp(`\\) readonly ${field}[?!]?:`));
  });

  it('only refunds/refund-life.ts creates refunds, assigns their fields or updates their rows', () => {
    expect(filesWith(/(?:create|nativeUpdate|nativeInsert|upsert|assign)\(\s*Refund\b/)).toEqual([
      'modules/refunds/refund-life.ts',
    ]);
    expect(filesWith(/Object\.assign\(\s*refund\b/)).toEqual(['modules/refunds/refund-life.ts']);
    expect(filesWith(/\bupdate\s+"?refund"?\s+set\b/i)).toEqual(['modules/refunds/refund-life.ts']);
    expect(filesWith(/\binsert\s+into\s+"?refund"?\s/i)).toEqual([]);
  });
});

describe('Order -> CANCELLED has one writer', () => {
  it('only orders/cancellation-record.ts sets an order CANCELLED and writes its cancellation row', () => {
    expect(filesWith(/\.status\s*=\s*OrderStatus\.Cancelled|order\.status\s*=\s*'CANCELLED'/)).toEqual([
      'modules/orders/cancellation-record.ts',
    ]);
    expect(filesWith(/create\(\s*OrderCancellation\b/)).toEqual(['modules/orders/cancellation-record.ts']);
    expect(filesWith(/\bupdate\s+"?insurance_order"?\s+set\b[^;`]*CANCELLED/i)).toEqual([]);
  });
});
