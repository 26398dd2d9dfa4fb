/**
 * An assistance case's one state machine (decision record 0073): every move a case can
 * make, as a table. Whoever moves a case (the desk through `ops case`, the partner withdrawing)
 * asks this table through `nextStatus`; nothing else assigns a status.
 */
export type CaseStatus = 'RECEIVED' | 'UNDER_REVIEW' | 'AUTHORISED' | 'DECLINED' | 'COMPLETED' | 'CLOSED' | 'WITHDRAWN';

/** What can be done to a case; each names one move. */
export type CaseAction = 'REVIEW' | 'AUTHORISE' | 'DECLINE' | 'COMPLETE' | 'CLOSE' | 'WITHDRAW';

export const CASE_STATUSES: readonly CaseStatus[] = [
  'RECEIVED',
  'UNDER_REVIEW',
  'AUTHORISED',
  'DECLINED',
  'COMPLETED',
  'CLOSED',
  'WITHDRAWN',
];

export const CASE_ACTIONS: readonly CaseAction[] = ['REVIEW', 'AUTHORISE', 'DECLINE', 'COMPLETE', 'CLOSE', 'WITHDRAW'];

/** For each action, the statuses it may start from and the status it leads to. */
export const CASE_TRANSITIONS: Readonly<Record<CaseAction, { from: readonly CaseStatus[]; to: CaseStatus }>> = {
  REVIEW: { from: ['RECEIVED'], to: 'UNDER_REVIEW' },
  AUTHORISE: { from: ['UNDER_REVIEW'], to: 'AUTHORISED' },
  DECLINE: { from: ['UNDER_REVIEW'], to: 'DECLINED' },
  COMPLETE: { from: ['AUTHORISED'], to: 'COMPLETED' },
  CLOSE: { from: ['COMPLETED'], to: 'CLOSED' },
  WITHDRAW: { from: ['RECEIVED', 'UNDER_REVIEW'], to: 'WITHDRAWN' },
};

/**
 * Open cases hold the traveller's one open slot (the partial unique index of migration
 * AssistanceCases lists the same statuses): a decided-against, closed or withdrawn case frees it.
 */
export const OPEN_STATUSES: readonly CaseStatus[] = ['RECEIVED', 'UNDER_REVIEW', 'AUTHORISED', 'COMPLETED'];

export const isOpen = (status: CaseStatus): boolean => OPEN_STATUSES.includes(status);

export type CaseMove = { allowed: true; to: CaseStatus } | { allowed: false; reason: string };

/** Where `action` takes a case in `status`, or why it may not. */
export function nextStatus(caseRef: string, status: CaseStatus, action: CaseAction): CaseMove {
  const transition = CASE_TRANSITIONS[action];
  if (transition.from.includes(status)) return { allowed: true, to: transition.to };
  const from = transition.from.join(' or ');
  return {
    allowed: false,
    reason: `Assistance case ${caseRef} is ${status}; only a ${from} case can be ${PAST[action]}`,
  };
}

const PAST: Record<CaseAction, string> = {
  REVIEW: 'taken under review',
  AUTHORISE: 'authorised',
  DECLINE: 'declined',
  COMPLETE: 'completed',
  CLOSE: 'closed',
  WITHDRAW: 'withdrawn',
};
