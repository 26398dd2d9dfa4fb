import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import {
  judgeDocumentSlots,
  referencedDocumentIds,
  travellerFieldErrors,
  type DocumentFacts,
} from './rules/traveller-registration';
import { Document } from '../documents/entities/document';
import { attachDocument } from '../documents';
import { Traveller } from './entities/traveller';
import { invalid, conflict, notFound } from '../../kernel/errors';
import type { QueryOf, Schemas } from '../../kernel/http/wire';
import type { Principal } from '../../kernel/http/request-scope';
import { UNIQUE, violatesUnique } from '../../kernel/db/unique-violation';
import { businessToday } from '../../kernel/business-today';

export type TravellerInput = Schemas['TravellerInput'];

/**
 * Registers a batch of travellers and attaches their documents, all in one transaction: one bad
 * item fails the batch and nothing is created or attached.
 */
export async function registerTravellers(
  em: EntityManager,
  principal: Principal,
  items: TravellerInput[],
  unprintable: (text: string) => string[],
): Promise<Traveller[]> {
  const fieldErrors = { ...printedFieldErrors(items, unprintable), ...travellerFieldErrors(items, businessToday()) };
  if (Object.keys(fieldErrors).length > 0) throw invalid('Validation failed', fieldErrors);

  try {
    return await em.transactional(async (tx) => {
      const byId = await takeDocuments(tx, principal, items);
      const now = new Date();
      return items.map((item) => createTraveller(tx, principal, item, byId, now));
    });
  } catch (error) {
    // The row locks make this rare; the unique slot constraints are the last word.
    if (violatesUnique(error, UNIQUE.travellerDocuments))
      throw conflict(
        'A document was attached to another traveller at the same moment; upload the file again (POST /documents) for this one',
      );
    throw error;
  }
}

/** What the policy certificate prints of a traveller (the passport number only masked, its end shown). */
const PRINTED_FIELDS = ['name', 'nationality', 'idNumber'] as const;

/**
 * A field the certificate prints must be in characters one of its embedded fonts has: a name in
 * a script it cannot draw would print as empty boxes and name nobody. `unprintable` is the
 * certificates module's check (the faces it embeds); each refused field names its characters.
 */
function printedFieldErrors(
  items: readonly TravellerInput[],
  unprintable: (text: string) => string[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  items.forEach((item, index) => {
    for (const field of PRINTED_FIELDS) {
      const missing = unprintable(item[field].trim());
      if (missing.length > 0) {
        const listed = missing
          .map(
            (character) =>
              `"${character}" (U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`,
          )
          .join(', ');
        errors[`[${index}].${field}`] = `contains characters the certificate cannot print: ${listed}`;
      }
    }
  });
  return errors;
}

/** The batch's documents, locked, once each is the caller's, of its slot's type and free. */
async function takeDocuments(
  tx: EntityManager,
  principal: Principal,
  items: TravellerInput[],
): Promise<Map<string, Document>> {
  // Locked so that a concurrent batch or the draft purge cannot take the same documents.
  const documents = await tx.find(
    Document,
    { id: { $in: referencedDocumentIds(items) }, company: principal.companyId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  const byId = new Map(documents.map((document) => [document.id, document]));
  const facts = new Map<string, DocumentFacts>(
    documents.map((document) => [
      document.id,
      {
        id: document.id,
        documentType: document.documentType,
        attached: document.traveller !== undefined && document.traveller !== null,
      },
    ]),
  );
  const verdict = judgeDocumentSlots(items, facts);
  if (verdict.kind === 'notFound') throw notFound(`Document ${verdict.documentId} not found`);
  if (verdict.kind === 'wrongType') throw invalid('Validation failed', verdict.fieldErrors);
  if (verdict.kind === 'conflict') {
    throw conflict(
      verdict.reason === 'attached'
        ? `Document ${verdict.documentId} is already attached to traveller ${byId.get(verdict.documentId)?.traveller?.id ?? 'another'}; a document belongs to one traveller: upload the file again (POST /documents) for this one`
        : `Document ${verdict.documentId} is used more than once in this request; upload the file again (POST /documents) for each use`,
    );
  }

  return byId;
}

function createTraveller(
  tx: EntityManager,
  principal: Principal,
  item: TravellerInput,
  byId: Map<string, Document>,
  now: Date,
): Traveller {
  const traveller = tx.create(Traveller, {
    company: principal.companyId,
    email: item.email.trim(),
    name: item.name.trim(),
    nameAsInPassport: item.nameAsInPassport?.toUpperCase(),
    dateOfBirth: item.dateOfBirth,
    nationality: item.nationality.trim(),
    countryOfResidence: item.countryOfResidence?.trim(),
    idType: item.idType,
    idNumber: item.idNumber.trim(),
    motherTongue: item.motherTongue?.trim(),
    bloodGroup: item.bloodGroup,
    gender: item.gender,
    phone: item.phone.trim(),
    height: item.height === undefined ? undefined : String(item.height),
    weight: item.weight === undefined ? undefined : String(item.weight),
    englishService: item.englishService,
    emergencyContactName: item.emergencyContactName.trim(),
    emergencyContactPhone: item.emergencyContactPhone.trim(),
    emergencyContactEmail: item.emergencyContactEmail.trim(),
    emergencyContactRelation: item.emergencyContactRelation.trim(),
    medicalHistory: item.medicalHistory,
    allergy: item.allergy,
    avatarDocument: byId.get(item.avatarDocumentId)!,
    passportDocument: byId.get(item.passportDocumentId)!,
    signatureDocument: byId.get(item.signatureDocumentId)!,
    visaDocument: item.visaDocumentId === undefined ? undefined : byId.get(item.visaDocumentId),
    createdAt: now,
  });
  for (const document of [
    traveller.avatarDocument,
    traveller.passportDocument,
    traveller.signatureDocument,
    traveller.visaDocument,
  ]) {
    if (document) attachDocument(document, now, traveller);
  }
  return traveller;
}

/** The sortBy values the spec allows; id breaks ties so pages never overlap. */
export type TravellerSortKey = 'createdAt' | 'name' | 'email' | 'nationality';

export type TravellerQuery = QueryOf<'listTravellers'>;

export interface TravellerPage {
  travellers: Traveller[];
  request: PageRequest;
  total: number;
}

/** `%`, `_` and `\` in a search term are literal characters, not LIKE wildcards. */
export const escapeLike = (term: string) => term.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * One page of the caller company's travellers. `search` matches a substring of the generated
 * `search_text` column (name, e-mail, ID number, phone, nationality, lower-cased), which its
 * trigram GIN index serves at any table size.
 */
export async function listTravellers(
  em: EntityManager,
  principal: Principal,
  query: TravellerQuery,
): Promise<TravellerPage> {
  const request = pageRequest(query.page, query.size);
  const { page, count } = travellerQueries(em, principal.companyId, query, request);
  // Unfiltered, the exact total is the company's counter (kept by triggers in each insert's transaction).
  const total = query.search?.trim() ? await count.getCount() : await countedTravellers(em, principal.companyId);
  const travellers = await page.getResultList();
  return { travellers, request, total };
}

/** The company's traveller count, maintained by the traveller_count triggers (migration TravellerCounts). */
async function countedTravellers(em: EntityManager, companyId: string): Promise<number> {
  const rows = await em
    .getConnection()
    .execute<{ travellers: string }[]>('select travellers from traveller_count where company_id = ?', [companyId]);
  const [row] = rows;
  return row === undefined ? 0 : Number(row.travellers);
}

/** The page and count queries of a listing; exported so the benchmark can EXPLAIN exactly these. */
export function travellerQueries(em: EntityManager, companyId: string, query: TravellerQuery, request: PageRequest) {
  const sortBy: TravellerSortKey = query.sortBy ?? 'createdAt';
  const direction = query.sortDir ?? 'desc';
  const qb = em.createQueryBuilder(Traveller, 't').where({ company: companyId });
  const term = query.search?.trim();
  if (term) qb.andWhere(`t.search_text like '%' || lower(?) || '%'`, [escapeLike(term)]);
  const count = qb.clone();
  const page = qb
    .orderBy({ [sortBy]: direction, id: direction })
    .limit(request.size)
    .offset(offsetOf(request));
  return { page, count };
}
