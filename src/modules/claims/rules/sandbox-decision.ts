import type { Schemas } from '../../../kernel/http/wire';
import type { ClaimStatus, ClaimStep } from './claim-life';

export type SandboxDecision = Schemas['SandboxClaimDecisionRequest']['decision'];

/**
 * The steps the sandbox desk takes from `status` to reach `decision`: a SUBMITTED claim is taken
 * under assessment first, an undecided claim is approved in full before it is paid. The machine
 * (claim-life.ts) still judges each step, so a decision it forbids is refused, never forced.
 */
export function sandboxSteps(status: ClaimStatus, decision: SandboxDecision): ClaimStep[] {
  const assessFirst: ClaimStep[] = status === 'SUBMITTED' ? ['ASSESS'] : [];
  switch (decision) {
    case 'UNDER_ASSESSMENT':
      return ['ASSESS'];
    case 'INFORMATION_REQUESTED':
      return [...assessFirst, 'REQUEST_INFORMATION'];
    case 'APPROVED':
      return [...assessFirst, 'APPROVE'];
    case 'PARTIALLY_APPROVED':
      return [...assessFirst, 'APPROVE_PARTIALLY'];
    case 'DECLINED':
      return [...assessFirst, 'DECLINE'];
    case 'PAID':
      return status === 'APPROVED' || status === 'PARTIALLY_APPROVED' ? ['PAY'] : [...assessFirst, 'APPROVE', 'PAY'];
  }
}
