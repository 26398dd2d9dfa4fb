import { isPaidOrderStatus } from '../../orders/entities/order';

/**
 * Whether a policy covers its traveller, as the public verification page answers a trekking
 * checkpoint on the Kathmandu date `today`. Four states a checkpoint must never confuse:
 * NOT_YET_IN_FORCE (paid, its window starts later: bought ahead of the trek, but it does not
 * cover today), VALID (paid, today inside the window, both ends included), EXPIRED (the window
 * is over) and CANCELLED. An order that was never paid has no policy number, so it cannot be
 * looked up at all; NOT_PAID is only the answer should one be.
 */
export type PolicyStanding = 'NOT_YET_IN_FORCE' | 'VALID' | 'EXPIRED' | 'CANCELLED' | 'NOT_PAID';

export interface PolicyFacts {
  status: string;
  coverageStartDate: string;
  coverageEndDate: string;
}

/** Dates are `YYYY-MM-DD`, so they compare as strings. */
export function policyStanding(policy: PolicyFacts, today: string): PolicyStanding {
  if (policy.status === 'CANCELLED') return 'CANCELLED';
  if (!isPaidOrderStatus(policy.status)) return 'NOT_PAID';
  if (today > policy.coverageEndDate) return 'EXPIRED';
  if (today < policy.coverageStartDate) return 'NOT_YET_IN_FORCE';
  return 'VALID';
}

/** Whether an order in `status` has a certificate: it is paid and was not cancelled. */
export function isInsuredStatus(status: string): boolean {
  return isPaidOrderStatus(status);
}

/**
 * A policy number as typed from a paper certificate: spaces anywhere, lower case, any dash
 * between its parts ("pol 2026 000087", "POL–2026–000087") all mean POL-2026-000087, and a
 * sandbox's "sbx pol 2026 000087" means SBX-POL-2026-000087. Anything else comes back trimmed and
 * upper-cased, for the lookup to find nothing.
 */
export function canonicalPolicyNumber(typed: string): string {
  const compact = typed
    .replace(/[\s\u2010-\u2015\u2212_]+/gu, (separator) => (/^\s+$/u.test(separator) ? ' ' : '-'))
    .trim()
    .toUpperCase();
  const parts = /^(SBX[ -]*)?POL[ -]*(\d{4})[ -]*(\d+)$/.exec(compact);
  return parts ? `${parts[1] ? 'SBX-' : ''}POL-${parts[2]}-${parts[3]}` : compact.replace(/\s+/g, '');
}
