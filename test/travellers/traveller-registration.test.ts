import {
  judgeDocumentSlots,
  referencedDocumentIds,
  travellerFieldErrors,
  type DocumentFacts,
} from '../../src/modules/travellers/rules/traveller-registration';
import { DocumentType } from '../../src/modules/documents/entities/document';

const doc = (id: string, documentType: DocumentType, attached = false): [string, DocumentFacts] => [
  id,
  { id, documentType, attached },
];
const found = new Map([
  doc('a1', DocumentType.Avatar),
  doc('p1', DocumentType.Passport),
  doc('s1', DocumentType.Signature),
  doc('v1', DocumentType.Visa),
  doc('a2', DocumentType.Avatar),
  doc('p2', DocumentType.Passport),
  doc('s2', DocumentType.Signature),
  doc('taken', DocumentType.Avatar, true),
]);
const slots = (a: string, p: string, s: string, v?: string) => ({
  avatarDocumentId: a,
  passportDocumentId: p,
  signatureDocumentId: s,
  ...(v ? { visaDocumentId: v } : {}),
});

describe('travellerFieldErrors', () => {
  const person = { name: 'Anna Keller', dateOfBirth: '1990-04-12', email: 'anna@example.com' };

  it('accepts a birth date of today and before', () => {
    expect(travellerFieldErrors([person, { ...person, dateOfBirth: '2026-05-01' }], '2026-05-01')).toEqual({});
  });

  it('refuses a birth date after the Kathmandu today, indexed by position', () => {
    expect(travellerFieldErrors([person, { ...person, dateOfBirth: '2026-05-02' }], '2026-05-01')).toEqual({
      '[1].dateOfBirth': 'must not be in the future',
    });
  });

  it('refuses required text made only of spaces', () => {
    expect(travellerFieldErrors([{ ...person, name: '   ' }], '2026-05-01')).toEqual({
      '[0].name': 'must not be blank',
    });
  });
});

describe('judgeDocumentSlots', () => {
  it('accepts a batch whose documents are drafts of the right types', () => {
    expect(judgeDocumentSlots([slots('a1', 'p1', 's1', 'v1'), slots('a2', 'p2', 's2')], found)).toEqual({ kind: 'ok' });
  });

  it('lists each document once, in request order', () => {
    expect(referencedDocumentIds([slots('a1', 'p1', 's1'), slots('a1', 'p2', 's2', 'v1')])).toEqual([
      'a1',
      'p1',
      's1',
      'p2',
      's2',
      'v1',
    ]);
  });

  it('reports an unknown (or foreign) document before anything else', () => {
    expect(judgeDocumentSlots([slots('p1', 'p1', 's1'), slots('nope', 'p2', 's2')], found)).toEqual({
      kind: 'notFound',
      documentId: 'nope',
    });
  });

  it('reports every document of the wrong type as a field error of its slot', () => {
    expect(judgeDocumentSlots([slots('a1', 'p1', 's1'), slots('p2', 'a2', 's2')], found)).toEqual({
      kind: 'wrongType',
      fieldErrors: {
        '[1].avatarDocumentId': 'document is of type PASSPORT, expected AVATAR',
        '[1].passportDocumentId': 'document is of type AVATAR, expected PASSPORT',
      },
    });
  });

  it('reports a document already attached to a traveller as a conflict', () => {
    expect(judgeDocumentSlots([slots('taken', 'p1', 's1')], found)).toEqual({
      kind: 'conflict',
      documentId: 'taken',
      reason: 'attached',
    });
  });

  it('reports a document used by two travellers of the batch as a conflict', () => {
    expect(judgeDocumentSlots([slots('a1', 'p1', 's1'), slots('a1', 'p2', 's2')], found)).toEqual({
      kind: 'conflict',
      documentId: 'a1',
      reason: 'reused',
    });
  });
});
