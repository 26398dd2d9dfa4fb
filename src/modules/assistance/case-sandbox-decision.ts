import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalidField, notFound } from '../../kernel/errors';
import { minorFromAmount } from '../../kernel/money';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { moveCase, type CaseGuarantee } from './case-transition';
import { caseView, findVisibleCase, type CaseView } from './case-reading';
import type { CaseAction } from './rules/case-status';
import { guaranteeNote } from './rules/guarantee-note';

export type SandboxCaseDecision = Schemas['SandboxCaseDecisionRequest'];

const ACTIONS: Record<SandboxCaseDecision['decision'], Exclude<CaseAction, 'WITHDRAW'>> = {
  UNDER_REVIEW: 'REVIEW',
  AUTHORISED: 'AUTHORISE',
  DECLINED: 'DECLINE',
  COMPLETED: 'COMPLETE',
  CLOSED: 'CLOSE',
};

const GUARANTEE_FIELDS = ['guaranteeRef', 'operator', 'costLimit', 'destinationHospital'] as const;

/** The guarantee an AUTHORISED decision records: the partner's fields, plausible sandbox ones for the rest. */
function guaranteeOf(caseRef: string, decision: SandboxCaseDecision, currency: string): CaseGuarantee {
  return {
    guaranteeRef: decision.guaranteeRef ?? `SBX-GOP-${caseRef}`,
    operator: decision.operator ?? 'Sandbox Heli Rescue',
    costLimit: minorFromAmount(decision.costLimit ?? 650_000),
    currency,
    destinationHospital: decision.destinationHospital ?? 'CIWEC Hospital, Kathmandu',
  };
}

/**
 * POST /sandbox/assistance-cases/{caseRef}/decision: the sandbox plays the assistance desk,
 * through the one mover the desk's `ops case` commands use (moveCase, under the case's row lock):
 * the same state machine, timeline and audit entries and `assistance_case.updated` events. The
 * placing company moves any case of its order; a listed agency only one it opened (decision
 * record 0090); anyone else reads a 404, as for an unknown case.
 */
export async function decideCaseInSandbox(
  em: EntityManager,
  principal: Principal,
  caseRef: string,
  decision: SandboxCaseDecision,
  currency: string,
  now = new Date(),
): Promise<CaseView> {
  const ref = caseRef.trim().toUpperCase();
  const stray = GUARANTEE_FIELDS.find((field) => decision[field] !== undefined);
  if (stray && decision.decision !== 'AUTHORISED') throw invalidField(stray, 'only with the decision AUTHORISED');
  return em.fork().transactional(async (tx) => {
    const assistanceCase = await findVisibleCase(tx, principal, ref, true);
    const mayDecide =
      assistanceCase.order.company.id === principal.companyId ||
      assistanceCase.openedByCompany.id === principal.companyId;
    if (!mayDecide) throw notFound(`Assistance case ${ref} not found`);
    const guarantee = decision.decision === 'AUTHORISED' ? guaranteeOf(ref, decision, currency) : undefined;
    await moveCase(
      tx,
      assistanceCase,
      {
        action: ACTIONS[decision.decision],
        by: 'DESK',
        actor: `sandbox-desk:${principal.companyId}`,
        at: now,
        note: decision.note ?? (guarantee ? guaranteeNote(guarantee) : null),
        guarantee,
      },
      (message) =>
        conflict(`${message} (the desk moves a case one step at a time)`).coded('ASSISTANCE_CASE_MOVE_REFUSED'),
    );
    assistanceCase.updatedAt = now;
    await tx.flush();
    return caseView(tx, assistanceCase);
  });
}
