/**
 * Reference formats of orders, groups and policies: `ORD-<year>-<seq>`, `ORDN-<year>-<seq>`,
 * `GRP-<year>-<seq>`, and the policy number `POL-<year>-<seq>` a paid order gets. The sequence
 * number comes from a database sequence per kind and never resets, so a reference stays unique
 * across years and processes; it is zero-padded to six digits for display and simply grows
 * longer past 999999. A sandbox database's policy numbers carry SANDBOX_POLICY_PREFIX in front
 * (`SBX-POL-<year>-<seq>`, decision record 0103): a policy number is either form.
 */
export type ReferenceKind = 'ORD' | 'ORDN' | 'GRP' | 'POL';

const SEQUENCE_DIGITS = 6;

/** What a sandbox database's policy numbers start with (certificates' policy-numbers.ts). */
export const SANDBOX_POLICY_PREFIX = 'SBX-';

export function formatReference(kind: ReferenceKind, year: string, sequence: number | string): string {
  if (!/^\d{4}$/.test(year)) throw new Error(`Not a four-digit year: ${year}`);
  const digits = String(sequence);
  if (!/^[1-9]\d*$/.test(digits)) throw new Error(`Not a positive sequence number: ${digits}`);
  return `${kind}-${year}-${digits.padStart(SEQUENCE_DIGITS, '0')}`;
}

const PATTERNS: Record<ReferenceKind, RegExp> = {
  ORD: /^ORD-\d{4}-\d+$/,
  ORDN: /^ORDN-\d{4}-\d+$/,
  GRP: /^GRP-\d{4}-\d+$/,
  POL: /^(?:SBX-)?POL-\d{4}-\d+$/,
};

export function isReference(kind: ReferenceKind, value: string): boolean {
  return PATTERNS[kind].test(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
