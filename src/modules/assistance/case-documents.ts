import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import { attachDocument, Document, DocumentType } from '../documents';
import { AssistanceCaseDocument } from './entities/assistance-case-document';
import type { AssistanceCase } from './entities/assistance-case';
import { MAX_DOCUMENTS_PER_CASE } from './rules/case-limits';

/**
 * Attaches `documentIds` to the case in the caller's transaction: each must be a MEDICAL_REPORT
 * the caller's company uploaded and has not attached anywhere (400 naming the first that is
 * not). Marking them attached keeps the draft purge away from them.
 */
export async function attachCaseDocuments(
  tx: EntityManager,
  assistanceCase: AssistanceCase,
  companyId: string,
  documentIds: readonly string[],
  at: Date,
): Promise<string[]> {
  if (documentIds.length === 0) return [];
  const attached = await tx.count(AssistanceCaseDocument, { assistanceCase: assistanceCase.id });
  if (attached + documentIds.length > MAX_DOCUMENTS_PER_CASE) {
    throw invalid('Validation failed', {
      documentIds: `a case holds at most ${MAX_DOCUMENTS_PER_CASE} documents; it has ${attached}`,
    });
  }
  const found = await tx.find(
    Document,
    { id: { $in: [...documentIds] }, company: companyId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  const byId = new Map(found.map((document) => [document.id, document]));
  for (const [index, id] of documentIds.entries()) {
    const document = byId.get(id);
    const problem = !document
      ? 'no document of your company has this id'
      : document.documentType !== DocumentType.MedicalReport
        ? `is a ${document.documentType} document; only MEDICAL_REPORT documents attach to a case`
        : document.traveller || document.attachedAt
          ? 'is already attached'
          : null;
    if (problem) throw invalid('Validation failed', { [`documentIds[${index}]`]: problem });
  }
  for (const document of found) {
    attachDocument(document, at);
    tx.create(AssistanceCaseDocument, { assistanceCase, document, createdAt: at });
  }
  return [...documentIds];
}

/** The ids of the documents attached to each of `caseIds`, in attachment order. */
export async function documentIdsOf(em: EntityManager, caseIds: readonly string[]): Promise<Map<string, string[]>> {
  const links =
    caseIds.length === 0
      ? []
      : await em.find(
          AssistanceCaseDocument,
          { assistanceCase: { $in: [...caseIds] } },
          { orderBy: { createdAt: 'asc', id: 'asc' } },
        );
  const byCase = new Map<string, string[]>(caseIds.map((id) => [id, []]));
  for (const link of links) byCase.get(link.assistanceCase.id)?.push(link.document.id);
  return byCase;
}
