import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import type { QueryOf } from '../../kernel/http/wire';
import { Claim } from './entities/claim';
import { ClaimDocument } from './entities/claim-document';
import { ClaimEntry } from './entities/claim-entry';
import { ClaimItem } from './entities/claim-item';
import { ClaimItemDecision } from './entities/claim-item-decision';
import { ClaimPayout } from './entities/claim-payout';
import { claimReaders } from './claim-readers';
import type { ClaimView } from './claim-wire';

const CLAIM_POPULATE = ['order', 'assistanceCase'] as const;

/** The rows the answers of `claims` show, read in four statements whatever their number. */
export async function claimViews(em: EntityManager, claims: readonly Claim[]): Promise<ClaimView[]> {
  const ids = claims.map((claim) => claim.id);
  if (ids.length === 0) return [];
  const [items, links, payouts] = await Promise.all([
    em.find(ClaimItem, { claim: { $in: ids } }, { orderBy: { position: 'asc' } }),
    em.find(
      ClaimDocument,
      { claim: { $in: ids } },
      { populate: ['document'], orderBy: { createdAt: 'asc', id: 'asc' } },
    ),
    em.find(ClaimPayout, { claim: { $in: ids } }),
  ]);
  const decisions = await em.find(ClaimItemDecision, { item: { $in: items.map((item) => item.id) } });
  const decisionOf = new Map(decisions.map((decision) => [decision.item.id, decision]));
  return claims.map((claim) => {
    const own = items.filter((item) => item.claim.id === claim.id);
    return {
      claim,
      items: own,
      decisions: new Map(
        own.flatMap((item) => {
          const decision = decisionOf.get(item.id);
          return decision ? [[item.id, decision] as const] : [];
        }),
      ),
      documents: links
        .filter((link) => link.claim.id === claim.id)
        .map((link) => ({
          documentId: link.document.id,
          documentType: link.document.documentType,
          itemId: link.item?.id ?? null,
        })),
      payout: payouts.find((payout) => payout.claim.id === claim.id) ?? null,
    };
  });
}

/** A claim's view and timeline, oldest first. */
export async function claimDetail(
  em: EntityManager,
  claim: Claim,
): Promise<{ view: ClaimView; timeline: ClaimEntry[] }> {
  await em.populate(claim, CLAIM_POPULATE);
  const [views, timeline] = await Promise.all([
    claimViews(em, [claim]),
    em.find(ClaimEntry, { claim: claim.id }, { orderBy: { at: 'asc', id: 'asc' } }),
  ]);
  const [view] = views;
  if (!view) throw new Error(`No view of claim ${claim.claimRef}`);
  return { view, timeline };
}

/**
 * The claim `claimRef` if the caller may read it (it filed it, placed the order, or is listed on
 * it as a registered agency); anybody else gets the 404 of a claim that does not exist. `lock`
 * takes the claim's row lock for a change.
 */
export async function findVisibleClaim(
  em: EntityManager,
  principal: Principal,
  claimRef: string,
  lock = false,
): Promise<Claim> {
  const claim = await em.findOne(Claim, { claimRef }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!claim) throw notFound(`Claim ${claimRef} not found`);
  await em.populate(claim, CLAIM_POPULATE);
  const readers = await claimReaders(em, claim.order);
  if (claim.filedByCompany.id !== principal.companyId && !readers.includes(principal.companyId))
    throw notFound(`Claim ${claimRef} not found`);
  return claim;
}

export type ClaimQuery = QueryOf<'listClaims'>;

/** GET /claims: the claims the caller may read, newest first unless asked otherwise (the id breaks ties). */
export async function listClaims(
  em: EntityManager,
  principal: Principal,
  query: ClaimQuery,
): Promise<{ views: ClaimView[]; request: PageRequest; total: number }> {
  const request = pageRequest(query.page, query.size);
  const where: FilterQuery<Claim> = {
    $and: [
      {
        $or: [
          { filedByCompany: principal.companyId },
          { order: { company: principal.companyId } },
          { order: { travelCompanies: { company: principal.companyId } } },
        ],
      },
      ...(query.status?.length ? [{ status: { $in: query.status } }] : []),
      ...(query.claimType ? [{ claimType: query.claimType }] : []),
      ...(query.orderRef ? [{ order: { orderRef: query.orderRef } }] : []),
      ...(query.assistanceCaseRef ? [{ assistanceCase: { caseRef: query.assistanceCaseRef } }] : []),
      ...(query.createdFrom ? [{ filedAt: { $gte: new Date(query.createdFrom) } }] : []),
      ...(query.createdTo ? [{ filedAt: { $lt: new Date(query.createdTo) } }] : []),
    ],
  };
  const direction = query.sortDir ?? 'desc';
  const [claims, total] = await em.findAndCount(Claim, where, {
    populate: [...CLAIM_POPULATE],
    orderBy: { [query.sortBy ?? 'filedAt']: direction, id: direction },
    limit: request.size,
    offset: offsetOf(request),
  });
  return { views: await claimViews(em, claims), request, total };
}
