import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../kernel/errors';
import { attachDocument, Document } from '../documents';
import type { Claim } from './entities/claim';
import { ClaimDocument } from './entities/claim-document';
import type { ClaimItem } from './entities/claim-item';
import { claimDocumentProblem } from './rules/claim-documents';

/** Documents to attach, each with the body field that named it (for the field error) and its item, if any. */
export interface DocumentsToAttach {
  field: string;
  documentId: string;
  item: ClaimItem | null;
}

/**
 * Attaches documents to a claim in the caller's transaction: each must be a draft of the caller's
 * company (no traveller took it, nothing attached it) of a claim document type, else a 400 naming
 * the first that is not. Marking them attached keeps the draft purge away from them.
 */
export async function attachClaimDocuments(
  tx: EntityManager,
  claim: Claim,
  companyId: string,
  wanted: readonly DocumentsToAttach[],
  at: Date,
): Promise<void> {
  if (wanted.length === 0) return;
  const found = await tx.find(
    Document,
    { id: { $in: wanted.map((entry) => entry.documentId) }, company: companyId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  const byId = new Map(found.map((document) => [document.id, document]));
  const seen = new Set<string>();
  for (const entry of wanted) {
    const document = byId.get(entry.documentId);
    const problem = claimDocumentProblem(
      document && { documentType: document.documentType, taken: Boolean(document.traveller || document.attachedAt) },
      seen.has(entry.documentId),
    );
    if (problem || !document) throw invalid('Validation failed', { [entry.field]: problem ?? 'not found' });
    seen.add(entry.documentId);
    attachDocument(document, at);
    tx.create(ClaimDocument, { claim, item: entry.item, document, createdAt: at });
  }
}
