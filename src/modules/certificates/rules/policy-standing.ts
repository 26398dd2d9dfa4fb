/**
 * Whether a policy is in force, as the public verification page answers a trekking checkpoint.
 * A policy is VALID when its order is paid (PAID, or COMPLETED/CLOSED after a paid trip) and its
 * coverage window has not ended on the Kathmandu date `today`; a window that starts later is
 * still a valid policy (bought ahead of the trek), and the page says when cover begins. It is
 * NOT VALID when the order was cancelled or the window is over. An order that was never paid has
 * no policy number, so it cannot be looked up at all.
 */
export type PolicyStanding =
  | { valid: true; coverStarted: boolean }
  | { valid: false; reason: 'CANCELLED' | 'COVER_ENDED' | 'NOT_PAID' };

export interface PolicyFacts {
  status: string;
  coverageStartDate: string;
  coverageEndDate: string;
}

const PAID_STATES = ['PAID', 'COMPLETED', 'CLOSED'];

/** Dates are `YYYY-MM-DD`, so they compare as strings. */
export function policyStanding(policy: PolicyFacts, today: string): PolicyStanding {
  if (policy.status === 'CANCELLED') return { valid: false, reason: 'CANCELLED' };
  if (!PAID_STATES.includes(policy.status)) return { valid: false, reason: 'NOT_PAID' };
  if (today > policy.coverageEndDate) return { valid: false, reason: 'COVER_ENDED' };
  return { valid: true, coverStarted: today >= policy.coverageStartDate };
}

/** Whether an order in `status` has a certificate: it is paid and was not cancelled. */
export function isInsuredStatus(status: string): boolean {
  return PAID_STATES.includes(status);
}
