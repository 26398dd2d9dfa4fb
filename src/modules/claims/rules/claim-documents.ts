import type { Schemas } from '../../../kernel/http/wire';

type DocumentType = Schemas['DocumentType'];

/** The document types a claim takes (the contract's claim documents; filing.ts's checklist names the same). */
export const CLAIM_DOCUMENT_TYPES: readonly DocumentType[] = [
  'INVOICE',
  'RECEIPT',
  'MEDICAL_REPORT',
  'POLICE_REPORT',
  'TRAVEL_DOCUMENT',
  'DEATH_CERTIFICATE',
];

/** A document of the caller's company as attaching needs it: its type and whether anything took it already. */
export interface DocumentToJudge {
  documentType: DocumentType;
  /** A traveller took it, or a claim or a case attached it. */
  taken: boolean;
}

/**
 * Why a named document cannot attach to a claim, or null: it must be a draft of the caller's
 * company (`undefined` when none has the id), of a claim document type, not taken, and not named
 * twice in one request (`namedBefore`).
 */
export function claimDocumentProblem(document: DocumentToJudge | undefined, namedBefore: boolean): string | null {
  if (!document) return 'no document of your company has this id';
  if (!CLAIM_DOCUMENT_TYPES.includes(document.documentType))
    return `is a ${document.documentType} document; a claim takes ${CLAIM_DOCUMENT_TYPES.join(', ')}`;
  if (document.taken || namedBefore) return 'is already attached';
  return null;
}
