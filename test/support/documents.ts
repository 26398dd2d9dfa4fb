import type { Schemas } from '../../src/kernel/http/wire';
import type { ApiClient, ApiResponse } from './http-client';

/** Small but real files: a 1x1 PNG, a 1x1 JPEG, a 1x1 lossless WebP and a one-page PDF. */
export const FILES = {
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
  jpeg: Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
  webp: Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'),
  pdf: Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
      '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 72 72]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  ),
};

export const DOCUMENTS_PATH = '/api/external/v1/documents';
export const TRAVELLERS_PATH = '/api/external/v1/travellers';

export interface UploadOptions {
  fileName?: string;
  /** The part's declared media type; the server ignores it and sniffs the bytes. */
  declaredType?: string;
}

export function uploadForm(
  documentType: string | undefined,
  bytes: Buffer | undefined,
  options: UploadOptions = {},
): FormData {
  const form = new FormData();
  if (documentType !== undefined) form.append('documentType', documentType);
  if (bytes !== undefined)
    form.append(
      'file',
      new Blob([bytes], { type: options.declaredType ?? 'application/octet-stream' }),
      options.fileName ?? 'document.bin',
    );
  return form;
}

/** POST /documents, checked against the spec. */
export function uploadDocument(
  client: ApiClient,
  token: string,
  documentType: string,
  bytes: Buffer,
  options: UploadOptions = {},
): Promise<ApiResponse> {
  return client.op('uploadDocument', 'POST', DOCUMENTS_PATH, undefined, {
    token,
    raw: uploadForm(documentType, bytes, options),
  });
}

export async function uploadedDocumentId(
  client: ApiClient,
  token: string,
  documentType: string,
  bytes: Buffer,
): Promise<string> {
  const response = await uploadDocument(client, token, documentType, bytes);
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.documentId;
}

export interface TravellerDocuments {
  avatarDocumentId: string;
  passportDocumentId: string;
  signatureDocumentId: string;
  visaDocumentId?: string;
}

/** The three required drafts of one traveller: PNG avatar, PDF passport, PNG signature. */
export async function uploadTravellerDocuments(client: ApiClient, token: string): Promise<TravellerDocuments> {
  const [avatarDocumentId, passportDocumentId, signatureDocumentId] = await Promise.all([
    uploadedDocumentId(client, token, 'AVATAR', FILES.png),
    uploadedDocumentId(client, token, 'PASSPORT', FILES.pdf),
    uploadedDocumentId(client, token, 'SIGNATURE', FILES.png),
  ]);
  return { avatarDocumentId, passportDocumentId, signatureDocumentId };
}

let sequence = 0;

/** A complete, valid traveller request item; override any field. */
export function travellerInput(
  documents: TravellerDocuments,
  overrides: Partial<Schemas['TravellerInput']> = {},
): Schemas['TravellerInput'] {
  sequence += 1;
  return {
    email: `anna.keller.${sequence}@example.com`,
    name: 'Anna Keller',
    dateOfBirth: '1990-04-12',
    nationality: 'Germany',
    countryOfResidence: 'Germany',
    idType: 'PASSPORT',
    idNumber: `C0${String(1000000 + sequence)}`,
    gender: 'FEMALE',
    phone: '+49 151 23456789',
    emergencyContactName: 'Lena Keller',
    emergencyContactPhone: '+49 151 98765432',
    emergencyContactEmail: 'lena.keller@example.com',
    emergencyContactRelation: 'Sister',
    ...documents,
    ...overrides,
  };
}

/**
 * Uploads three real documents and registers one traveller for the partner; returns its touristId.
 * For tests of later steps (orders, payments) that need a traveller and nothing more.
 */
export async function registerTraveller(
  client: ApiClient,
  partner: { token: string },
  overrides: Partial<Schemas['TravellerInput']> = {},
): Promise<string> {
  const documents = await uploadTravellerDocuments(client, partner.token);
  const response = await client.op(
    'registerTravellers',
    'POST',
    TRAVELLERS_PATH,
    [travellerInput(documents, overrides)],
    { token: partner.token },
  );
  if (response.status !== 201)
    throw new Error(`registration failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data[0].touristId;
}
