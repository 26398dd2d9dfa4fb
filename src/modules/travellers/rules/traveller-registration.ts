import { DocumentType } from '../../documents';
import type { FieldErrors } from '../../../kernel/errors';
import { isCalendarDate } from '../../../kernel/business-date';
import { nameTextProblem } from './name-text';

/** The document fields of a traveller and the document type each must hold. */
export const DOCUMENT_SLOTS = [
  { field: 'avatarDocumentId', type: DocumentType.Avatar, required: true },
  { field: 'passportDocumentId', type: DocumentType.Passport, required: true },
  { field: 'signatureDocumentId', type: DocumentType.Signature, required: true },
  { field: 'visaDocumentId', type: DocumentType.Visa, required: false },
] as const;

export type DocumentSlotField = (typeof DOCUMENT_SLOTS)[number]['field'];

/** The document ids a registration item names, in its slots. */
export type DocumentReferences = Partial<Record<DocumentSlotField, string | null>>;

export interface TravellerFacts {
  name: string;
  dateOfBirth: string;
  [field: string]: unknown;
}

const REQUIRED_TEXT = [
  'email',
  'name',
  'nationality',
  'idNumber',
  'phone',
  'emergencyContactName',
  'emergencyContactPhone',
  'emergencyContactEmail',
  'emergencyContactRelation',
];

/** The people's names a registration holds: printed on the certificate, read by the assistance desk. */
const NAMES = ['name', 'emergencyContactName'];

/**
 * Rules the schema cannot say: required text that is only spaces, names a reader cannot see
 * (rules/name-text.ts), and a birth date after today
 * (the Kathmandu business date). Field names are indexed like `[3].dateOfBirth`.
 */
export function travellerFieldErrors(items: readonly TravellerFacts[], today: string): FieldErrors {
  const errors: FieldErrors = {};
  items.forEach((item, index) => {
    for (const field of REQUIRED_TEXT) {
      const value = item[field];
      if (typeof value === 'string' && value.trim() === '') errors[`[${index}].${field}`] = 'must not be blank';
    }
    for (const field of NAMES) {
      const value = item[field];
      const problem = typeof value === 'string' && value.trim() !== '' ? nameTextProblem(value) : undefined;
      if (problem) errors[`[${index}].${field}`] = problem;
    }
    if (!isCalendarDate(item.dateOfBirth)) errors[`[${index}].dateOfBirth`] = 'must be a date as YYYY-MM-DD';
    else if (item.dateOfBirth > today) errors[`[${index}].dateOfBirth`] = 'must not be in the future';
  });
  return errors;
}

/** What registration needs to know about a referenced document. */
export interface DocumentFacts {
  id: string;
  documentType: DocumentType;
  attached: boolean;
}

export type SlotVerdict =
  | { kind: 'ok' }
  | { kind: 'notFound'; documentId: string }
  | { kind: 'wrongType'; fieldErrors: FieldErrors }
  | { kind: 'conflict'; documentId: string; reason: 'attached' | 'reused' };

/** Every document ID a batch references, in request order, without duplicates. */
export function referencedDocumentIds(items: readonly DocumentReferences[]): string[] {
  const ids = new Set<string>();
  for (const item of items) {
    for (const slot of DOCUMENT_SLOTS) {
      const id = item[slot.field];
      if (typeof id === 'string') ids.add(id);
    }
  }
  return [...ids];
}

/**
 * Checks every document slot of a batch against the caller's documents (`found` holds only the
 * caller company's). Precedence: an unknown document (404), then wrong types (400, all of them),
 * then a document already attached or used twice in the batch (409).
 */
export function judgeDocumentSlots(
  items: readonly DocumentReferences[],
  found: ReadonlyMap<string, DocumentFacts>,
): SlotVerdict {
  const missing = referencedDocumentIds(items).find((id) => !found.has(id));
  if (missing) return { kind: 'notFound', documentId: missing };

  const fieldErrors: FieldErrors = {};
  items.forEach((item, index) => {
    for (const slot of DOCUMENT_SLOTS) {
      const id = item[slot.field];
      if (typeof id !== 'string') continue;
      const document = found.get(id)!;
      if (document.documentType !== slot.type) {
        fieldErrors[`[${index}].${slot.field}`] = `document is of type ${document.documentType}, expected ${slot.type}`;
      }
    }
  });
  if (Object.keys(fieldErrors).length > 0) return { kind: 'wrongType', fieldErrors };

  const seen = new Set<string>();
  for (const item of items) {
    for (const slot of DOCUMENT_SLOTS) {
      const id = item[slot.field];
      if (typeof id !== 'string') continue;
      if (found.get(id)!.attached) return { kind: 'conflict', documentId: id, reason: 'attached' };
      if (seen.has(id)) return { kind: 'conflict', documentId: id, reason: 'reused' };
      seen.add(id);
    }
  }
  return { kind: 'ok' };
}
