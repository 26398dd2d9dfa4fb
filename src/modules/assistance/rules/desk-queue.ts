import type { CaseStatus } from './case-status';

/**
 * The order the desk works in: cases nobody has reviewed yet first, oldest first (the longest
 * wait is the most urgent), then the other cases, oldest first.
 */
export function deskOrder<T extends { status: CaseStatus; openedAt: Date; caseRef: string }>(cases: readonly T[]): T[] {
  const unreviewed = (status: CaseStatus) => (status === 'RECEIVED' ? 0 : 1);
  return [...cases].sort(
    (a, b) =>
      unreviewed(a.status) - unreviewed(b.status) ||
      a.openedAt.getTime() - b.openedAt.getTime() ||
      a.caseRef.localeCompare(b.caseRef),
  );
}
