import { springPage } from '../../kernel/http/pagination';
import type { Traveller } from './entities/traveller';
import { successBody } from '../../kernel/http/envelope';
import { listTravellers, registerTravellers } from './travellers';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { createKeyHeader, idempotentCreate } from '../../kernel/http/idempotent-create';
import type { Schemas } from '../../kernel/http/wire';
import type { OperationPolicies } from '../../kernel/http/operation-policy';
import { isLatin, transliteration, unprintableCharacters } from '../certificates';
import { travellerWarnings } from './rules/traveller-warnings';
import { updateTravellerPassportName } from './traveller-update';

export const travellerHandlers = {
  async registerTravellers({ body, headers }, scope) {
    const fonts = scope.services.certificateFonts;
    const caller = callerOf(scope);
    return idempotentCreate(
      scope.em,
      { companyId: caller.companyId, operation: 'registerTravellers', key: createKeyHeader(headers), request: body },
      async (em) => {
        const travellers = await registerTravellers(em, caller, body, (text) => unprintableCharacters(fonts, text));
        const message = travellers.length === 1 ? 'Traveller registered' : `${travellers.length} travellers registered`;
        return { status: 201 as const, body: successBody(travellers.map(travellerWire), message) };
      },
    );
  },

  async updateTraveller({ params, body }, scope) {
    const { traveller } = await updateTravellerPassportName(
      scope.em,
      callerOf(scope),
      params.travellerId,
      body.nameAsInPassport,
    );
    return { status: 200, body: successBody(travellerWire(traveller), 'Traveller updated') };
  },

  async listTravellers({ query }, scope) {
    const { travellers, request, total } = await listTravellers(scope.em, callerOf(scope), query);
    return { status: 200, body: successBody(springPage(travellers.map(travellerSummaryWire), request, total)) };
  },
} satisfies TagHandlers;

const decimalOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

export function travellerWire(traveller: Traveller): Schemas['Traveller'] {
  return {
    touristId: traveller.id,
    email: traveller.email,
    name: traveller.name,
    nameAsInPassport: traveller.nameAsInPassport ?? null,
    warnings: travellerWarnings(traveller, {
      latin: isLatin(traveller.name),
      transliterated: transliteration(traveller.name),
    }),
    dateOfBirth: traveller.dateOfBirth,
    nationality: traveller.nationality,
    countryOfResidence: traveller.countryOfResidence ?? null,
    idType: traveller.idType,
    idNumber: traveller.idNumber,
    motherTongue: traveller.motherTongue ?? null,
    bloodGroup: traveller.bloodGroup ?? null,
    gender: traveller.gender,
    phone: traveller.phone,
    height: decimalOrNull(traveller.height),
    weight: decimalOrNull(traveller.weight),
    englishService: traveller.englishService ?? null,
    emergencyContactName: traveller.emergencyContactName,
    emergencyContactPhone: traveller.emergencyContactPhone,
    emergencyContactEmail: traveller.emergencyContactEmail,
    emergencyContactRelation: traveller.emergencyContactRelation,
    medicalHistory: traveller.medicalHistory ?? null,
    allergy: traveller.allergy ?? null,
    avatarDocumentId: traveller.avatarDocument.id,
    passportDocumentId: traveller.passportDocument.id,
    signatureDocumentId: traveller.signatureDocument.id,
    visaDocumentId: traveller.visaDocument?.id ?? null,
    createdAt: traveller.createdAt.toISOString(),
  };
}

export function travellerSummaryWire(traveller: Traveller): Schemas['TravellerSummary'] {
  return {
    touristId: traveller.id,
    name: traveller.name,
    email: traveller.email,
    nationality: traveller.nationality,
    idType: traveller.idType,
    idNumber: traveller.idNumber,
    phone: traveller.phone,
    dateOfBirth: traveller.dateOfBirth,
    createdAt: traveller.createdAt.toISOString(),
  };
}

/** Traveller registration (a batch of up to 50 is one request) and updates, counted per company against one limit. */
export const travellerPolicies = {
  registerTravellers: { rateLimits: [{ counter: 'traveller', limit: (limits) => limits.travellerPerCompany }] },
  updateTraveller: { rateLimits: [{ counter: 'traveller', limit: (limits) => limits.travellerPerCompany }] },
} satisfies OperationPolicies;
