import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { AssistanceCaseEntry, type CaseChanges } from './entities/assistance-case-entry';
import { isOpen } from './rules/case-status';
import { MAX_UPDATES_PER_CASE } from './rules/case-limits';
import { attachCaseDocuments } from './case-documents';
import { caseView, findCaseToChange, type CaseView } from './case-reading';

export type CaseUpdate = Schemas['AssistanceCaseUpdateRequest'];

/**
 * POST /assistance-cases/{caseRef}/updates: the case keeps the latest location and altitude, the
 * timeline keeps each update as sent. Only an open case takes updates; the status does not move
 * (only the desk and a withdrawal move it), so no event is sent: the partner sent it.
 */
export async function addCaseUpdate(
  em: EntityManager,
  principal: Principal,
  caseRef: string,
  update: CaseUpdate,
  now = new Date(),
): Promise<CaseView> {
  return em.fork().transactional(async (tx) => {
    const assistanceCase = await findCaseToChange(tx, principal, caseRef);
    if (!isOpen(assistanceCase.status)) {
      throw invalid(
        `Assistance case ${caseRef} is ${assistanceCase.status} and takes no more updates; open a new case or call the assistance desk`,
      ).coded('ASSISTANCE_CASE_NOT_OPEN');
    }
    if (
      (await tx.count(AssistanceCaseEntry, { assistanceCase: assistanceCase.id, kind: 'PARTNER_UPDATE' })) >=
      MAX_UPDATES_PER_CASE
    ) {
      throw invalid(
        `Assistance case ${caseRef} has taken its ${MAX_UPDATES_PER_CASE} updates; call the assistance desk`,
      );
    }
    const changes: CaseChanges = {};
    if (update.location) changes.location = assistanceCase.location = update.location;
    if (update.altitudeMeters !== undefined)
      changes.altitudeMeters = assistanceCase.altitudeMeters = update.altitudeMeters;
    if (update.documentIds)
      changes.documentIds = await attachCaseDocuments(tx, assistanceCase, principal.companyId, update.documentIds, now);
    assistanceCase.updatedAt = now;
    tx.create(AssistanceCaseEntry, {
      assistanceCase,
      at: now,
      kind: 'PARTNER_UPDATE',
      by: 'PARTNER',
      actor: `api:${principal.companyId}`,
      status: assistanceCase.status,
      previousStatus: null,
      note: update.note ?? null,
      changes,
    });
    await tx.flush();
    return caseView(tx, assistanceCase);
  });
}
