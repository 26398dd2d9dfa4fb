/**
 * A claim's one state machine (decision record 0095), pure, as a table:
 *
 *   SUBMITTED --ASSESS--> UNDER_ASSESSMENT --REQUEST_INFORMATION--> INFORMATION_REQUESTED
 *   INFORMATION_REQUESTED --ANSWER (the partner)--> UNDER_ASSESSMENT
 *   UNDER_ASSESSMENT --APPROVE--> APPROVED | --APPROVE_PARTIALLY--> PARTIALLY_APPROVED | --DECLINE--> DECLINED
 *   APPROVED | PARTIALLY_APPROVED --PAY--> PAID
 *   PAID | DECLINED --CLOSE--> CLOSED
 *   SUBMITTED | UNDER_ASSESSMENT | INFORMATION_REQUESTED --WITHDRAW (the partner)--> WITHDRAWN
 *
 * claim-life.ts's `moveClaim` is the one function that applies a step, with its timeline entry,
 * audit entry and webhook event; no other code writes a claim's status.
 */
export type ClaimStatus =
  | 'SUBMITTED'
  | 'UNDER_ASSESSMENT'
  | 'INFORMATION_REQUESTED'
  | 'APPROVED'
  | 'PARTIALLY_APPROVED'
  | 'DECLINED'
  | 'PAID'
  | 'CLOSED'
  | 'WITHDRAWN';

export type ClaimStep =
  | 'ASSESS'
  | 'REQUEST_INFORMATION'
  | 'ANSWER'
  | 'APPROVE'
  | 'APPROVE_PARTIALLY'
  | 'DECLINE'
  | 'PAY'
  | 'CLOSE'
  | 'WITHDRAW';

export const CLAIM_STATUSES: readonly ClaimStatus[] = [
  'SUBMITTED',
  'UNDER_ASSESSMENT',
  'INFORMATION_REQUESTED',
  'APPROVED',
  'PARTIALLY_APPROVED',
  'DECLINED',
  'PAID',
  'CLOSED',
  'WITHDRAWN',
];

export const CLAIM_STEPS: readonly ClaimStep[] = [
  'ASSESS',
  'REQUEST_INFORMATION',
  'ANSWER',
  'APPROVE',
  'APPROVE_PARTIALLY',
  'DECLINE',
  'PAY',
  'CLOSE',
  'WITHDRAW',
];

/** For each step, the statuses it may start from and the status it leads to. */
export const CLAIM_MOVES: Readonly<Record<ClaimStep, { from: readonly ClaimStatus[]; to: ClaimStatus }>> = {
  ASSESS: { from: ['SUBMITTED'], to: 'UNDER_ASSESSMENT' },
  REQUEST_INFORMATION: { from: ['UNDER_ASSESSMENT'], to: 'INFORMATION_REQUESTED' },
  ANSWER: { from: ['INFORMATION_REQUESTED'], to: 'UNDER_ASSESSMENT' },
  APPROVE: { from: ['UNDER_ASSESSMENT'], to: 'APPROVED' },
  APPROVE_PARTIALLY: { from: ['UNDER_ASSESSMENT'], to: 'PARTIALLY_APPROVED' },
  DECLINE: { from: ['UNDER_ASSESSMENT'], to: 'DECLINED' },
  PAY: { from: ['APPROVED', 'PARTIALLY_APPROVED'], to: 'PAID' },
  CLOSE: { from: ['PAID', 'DECLINED'], to: 'CLOSED' },
  WITHDRAW: { from: ['SUBMITTED', 'UNDER_ASSESSMENT', 'INFORMATION_REQUESTED'], to: 'WITHDRAWN' },
};

const DONE: Readonly<Record<ClaimStep, string>> = {
  ASSESS: 'taken under assessment',
  REQUEST_INFORMATION: 'asked for information',
  ANSWER: 'take an answer',
  APPROVE: 'approved',
  APPROVE_PARTIALLY: 'partially approved',
  DECLINE: 'declined',
  PAY: 'paid',
  CLOSE: 'closed',
  WITHDRAW: 'withdrawn',
};

/** Where `step` takes a claim in `from`, or why it may not (a sentence naming the claim for the partner or the desk). */
export function claimStep(
  claimRef: string,
  from: ClaimStatus,
  step: ClaimStep,
): { to: ClaimStatus } | { refused: string } {
  const move = CLAIM_MOVES[step];
  if (move.from.includes(from)) return { to: move.to };
  const starts = move.from.join(', ').replace(/, ([^,]+)$/, ' or $1');
  const verb = step === 'ANSWER' ? 'can' : 'can be';
  const article = /^[AEIOU]/.test(move.from[0] ?? '') ? 'an' : 'a';
  return { refused: `Claim ${claimRef} is ${from}; only ${article} ${starts} claim ${verb} ${DONE[step]}` };
}

/** The decisions: the steps out of UNDER_ASSESSMENT that end the assessment. */
export const DECISION_STEPS: readonly ClaimStep[] = ['APPROVE', 'APPROVE_PARTIALLY', 'DECLINE'];

/** The statuses whose approval counts against the coverage line (decided for payment, paid, or closed after paying). */
export const APPROVAL_COUNTS: readonly ClaimStatus[] = ['APPROVED', 'PARTIALLY_APPROVED', 'PAID', 'CLOSED'];

/** `CLM-<year>-<seq>`: the year of filing (Nepal) and a database sequence number, six digits at least. */
export function formatClaimRef(year: string, sequence: string): string {
  if (!/^\d{4}$/.test(year)) throw new Error(`Not a four-digit year: ${year}`);
  if (!/^[1-9]\d*$/.test(sequence)) throw new Error(`Not a positive sequence number: ${sequence}`);
  return `CLM-${year}-${sequence.padStart(6, '0')}`;
}
