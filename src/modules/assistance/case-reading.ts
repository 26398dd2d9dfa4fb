import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import type { QueryOf } from '../../kernel/http/wire';
import { AssistanceCase } from './entities/assistance-case';
import { AssistanceCaseEntry } from './entities/assistance-case-entry';
import { caseReaders } from './case-readers';
import { documentIdsOf } from './case-documents';

/** A case with what its detail shows: its documents and its timeline, oldest first. */
export interface CaseView {
  assistanceCase: AssistanceCase;
  documentIds: string[];
  timeline: AssistanceCaseEntry[];
}

const CASE_POPULATE = ['order', 'traveller'] as const;

/** Reads a case's documents and timeline (the case itself is loaded). */
export async function caseView(em: EntityManager, assistanceCase: AssistanceCase): Promise<CaseView> {
  await em.populate(assistanceCase, CASE_POPULATE);
  const [documents, timeline] = await Promise.all([
    documentIdsOf(em, [assistanceCase.id]),
    em.find(AssistanceCaseEntry, { assistanceCase: assistanceCase.id }, { orderBy: { at: 'asc', id: 'asc' } }),
  ]);
  return { assistanceCase, documentIds: documents.get(assistanceCase.id) ?? [], timeline };
}

/**
 * The case `caseRef` if the caller may read it (the placing company or a listed registered
 * agency of its order); anybody else gets the 404 of a case that does not exist, so a case's
 * existence tells a stranger nothing. `lock` takes the case's row lock for a change.
 */
export async function findVisibleCase(
  em: EntityManager,
  principal: Principal,
  caseRef: string,
  lock = false,
): Promise<AssistanceCase> {
  const assistanceCase = await em.findOne(
    AssistanceCase,
    { caseRef },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!assistanceCase) throw notFound(`Assistance case ${caseRef} not found`);
  await em.populate(assistanceCase, CASE_POPULATE);
  if (!(await caseReaders(em, assistanceCase.order)).includes(principal.companyId))
    throw notFound(`Assistance case ${caseRef} not found`);
  return assistanceCase;
}

/**
 * The case `caseRef`, locked, for an update or a withdrawal: only the company that opened it
 * speaks for the traveller on the ground (decision record 0093); the other reader of the order
 * (the placing company or a listed agency) may read the case but gets a 403 for a change.
 */
export async function findCaseToChange(
  em: EntityManager,
  principal: Principal,
  caseRef: string,
): Promise<AssistanceCase> {
  const assistanceCase = await findVisibleCase(em, principal, caseRef, true);
  if (assistanceCase.openedByCompany.id !== principal.companyId)
    throw forbidden(
      `Assistance case ${caseRef} was opened by another company; only the company that opened it may update or withdraw it`,
    );
  return assistanceCase;
}

export type CaseQuery = QueryOf<'listAssistanceCases'>;

/** GET /assistance-cases: the cases the caller may read, newest first unless asked otherwise (the id breaks ties), with the filters of the contract. */
export async function listCases(
  em: EntityManager,
  principal: Principal,
  query: CaseQuery,
): Promise<{ rows: { assistanceCase: AssistanceCase; documentIds: string[] }[]; request: PageRequest; total: number }> {
  const request = pageRequest(query.page, query.size);
  const where: FilterQuery<AssistanceCase> = {
    $and: [
      {
        $or: [
          { order: { company: principal.companyId } },
          { order: { travelCompanies: { company: principal.companyId } } },
        ],
      },
      ...(query.status?.length ? [{ status: { $in: query.status } }] : []),
      ...(query.orderRef ? [{ order: { orderRef: query.orderRef } }] : []),
      ...(query.openedFrom ? [{ openedAt: { $gte: new Date(query.openedFrom) } }] : []),
      ...(query.openedTo ? [{ openedAt: { $lt: new Date(query.openedTo) } }] : []),
    ],
  };
  const [cases, total] = await em.findAndCount(AssistanceCase, where, {
    populate: [...CASE_POPULATE],
    orderBy: { [query.sortBy ?? 'openedAt']: query.sortDir ?? 'desc', id: query.sortDir ?? 'desc' },
    limit: request.size,
    offset: offsetOf(request),
  });
  const documents = await documentIdsOf(
    em,
    cases.map((assistanceCase) => assistanceCase.id),
  );
  return {
    rows: cases.map((assistanceCase) => ({ assistanceCase, documentIds: documents.get(assistanceCase.id) ?? [] })),
    request,
    total,
  };
}
