import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { attachClaimDocuments } from './claim-documents';
import { moveClaim } from './claim-life';
import { claimDetail } from './claim-reading';
import { findVisibleClaim } from './claim-reading';
import type { FiledClaim } from './claim-filing';

const refused = (message: string) => invalid(message).coded('CLAIM_MOVE_NOT_ALLOWED');

/** POST /claims/{claimRef}/information: the partner's answer to the desk's request, back to UNDER_ASSESSMENT. */
export async function answerInformationRequest(
  em: EntityManager,
  principal: Principal,
  claimRef: string,
  answer: Schemas['ClaimInformationRequest'],
  now = new Date(),
): Promise<FiledClaim> {
  return em.fork().transactional(async (tx) => {
    const claim = await findVisibleClaim(tx, principal, claimRef, true);
    const documentIds = answer.documentIds ?? [];
    await moveClaim(
      tx,
      claim,
      { step: 'ANSWER', by: 'PARTNER', actor: `api:${principal.companyId}`, at: now, note: answer.note, documentIds },
      refused,
    );
    await attachClaimDocuments(
      tx,
      claim,
      principal.companyId,
      documentIds.map((documentId, index) => ({ field: `documentIds[${index}]`, documentId, item: null })),
      now,
    );
    await tx.flush();
    return claimDetail(tx, claim);
  });
}

/** POST /claims/{claimRef}/withdrawal: before the desk decides. */
export async function withdrawClaim(
  em: EntityManager,
  principal: Principal,
  claimRef: string,
  reason: string,
  now = new Date(),
): Promise<FiledClaim> {
  return em.fork().transactional(async (tx) => {
    const claim = await findVisibleClaim(tx, principal, claimRef, true);
    await moveClaim(
      tx,
      claim,
      { step: 'WITHDRAW', by: 'PARTNER', actor: `api:${principal.companyId}`, at: now, note: reason },
      refused,
    );
    await tx.flush();
    return claimDetail(tx, claim);
  });
}
