import { randomBytes } from 'node:crypto';
import { Document, DocumentType } from '../../src/modules/documents/entities/document';
import { Traveller } from '../../src/modules/travellers/entities/traveller';
import type { Orm } from '../../src/kernel/db/orm';

export interface TravellerOverrides {
  name?: string;
  dateOfBirth?: string;
  nationality?: string;
  email?: string;
  nameAsInPassport?: string;
}

/**
 * A traveller of `companyId` with its three required documents, written straight through the ORM
 * (the server's, opened on TEST_DATABASE_URL), so order tests do not depend on POST /travellers.
 * Returns the touristId.
 */
export async function newTraveller(
  server: { orm: Orm },
  companyId: string,
  overrides: TravellerOverrides = {},
): Promise<string> {
  const em = server.orm.em.fork();
  const suffix = randomBytes(4).toString('hex');
  const document = (documentType: DocumentType) =>
    em.create(Document, {
      company: companyId,
      documentType,
      fileName: `${documentType.toLowerCase()}.png`,
      fileSize: 1024,
      contentType: 'image/png',
      storageKey: `test/${suffix}-${documentType.toLowerCase()}`,
      sha256: randomBytes(32).toString('hex'),
      attachedAt: new Date(),
    });
  const traveller = em.create(Traveller, {
    company: companyId,
    name: overrides.name ?? `Sophie Keller ${suffix}`,
    nameAsInPassport: overrides.nameAsInPassport,
    email: overrides.email ?? `sophie.${suffix}@example.com`,
    dateOfBirth: overrides.dateOfBirth ?? '1991-03-14',
    nationality: overrides.nationality ?? 'Germany',
    idType: 'PASSPORT',
    idNumber: `C${suffix.toUpperCase()}`,
    gender: 'FEMALE',
    phone: '+49 30 1234567',
    emergencyContactName: 'Jonas Keller',
    emergencyContactPhone: '+49 30 7654321',
    emergencyContactEmail: 'jonas.keller@example.com',
    emergencyContactRelation: 'Brother',
    avatarDocument: document(DocumentType.Avatar),
    passportDocument: document(DocumentType.Passport),
    signatureDocument: document(DocumentType.Signature),
  });
  for (const slot of [traveller.avatarDocument, traveller.passportDocument, traveller.signatureDocument])
    slot.traveller = traveller;
  await em.flush();
  return traveller.id;
}
