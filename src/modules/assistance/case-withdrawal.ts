import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { moveCase } from './case-transition';
import { caseView, findCaseToChange, type CaseView } from './case-reading';

/** POST /assistance-cases/{caseRef}/withdrawal: a false alarm, before the desk has decided. */
export async function withdrawCase(
  em: EntityManager,
  principal: Principal,
  caseRef: string,
  reason: string,
  now = new Date(),
): Promise<CaseView> {
  return em.fork().transactional(async (tx) => {
    const assistanceCase = await findCaseToChange(tx, principal, caseRef);
    await moveCase(
      tx,
      assistanceCase,
      { action: 'WITHDRAW', by: 'PARTNER', actor: `api:${principal.companyId}`, at: now, note: reason },
      (message) => invalid(`${message} (call the assistance desk)`).coded('ASSISTANCE_CASE_NOT_OPEN'),
    );
    assistanceCase.updatedAt = now;
    await tx.flush();
    return caseView(tx, assistanceCase);
  });
}
