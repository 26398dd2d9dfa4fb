import { DocumentType } from './document-type';
import { present } from '../../../kernel/narrow';

/** Media types a document may have; anything else is refused whatever its name or header says. */
export type DocumentContentType = 'image/jpeg' | 'image/png' | 'image/webp' | 'application/pdf';

/** Bytes the sniffer needs: WebP is recognised by its 12-byte RIFF header. */
export const SNIFF_BYTES = 12;

/** Enough for any image header: a JPEG's size comes after its EXIF and ICC segments. */
export const IMAGE_HEADER_BYTES = 512 * 1024;

/**
 * How many leading bytes an upload is judged on: an image by its header, a PDF whole (an active
 * name can sit anywhere, the last object or a compressed stream at the end included). Only
 * uploads of at most `maxFileBytes` are accepted, so that bounds what is held.
 */
export function bytesToJudge(head: Uint8Array, maxFileBytes: number): number {
  return sniffContentType(head) === 'application/pdf' ? maxFileBytes : IMAGE_HEADER_BYTES;
}

const IMAGES: readonly DocumentContentType[] = ['image/jpeg', 'image/png', 'image/webp'];

const ALLOWED: Record<DocumentType, readonly DocumentContentType[]> = {
  [DocumentType.Avatar]: IMAGES,
  [DocumentType.Signature]: IMAGES,
  [DocumentType.Passport]: [...IMAGES, 'application/pdf'],
  [DocumentType.Visa]: [...IMAGES, 'application/pdf'],
  [DocumentType.MedicalReport]: [...IMAGES, 'application/pdf'],
  [DocumentType.Invoice]: [...IMAGES, 'application/pdf'],
  [DocumentType.Receipt]: [...IMAGES, 'application/pdf'],
  [DocumentType.PoliceReport]: [...IMAGES, 'application/pdf'],
  [DocumentType.TravelDocument]: [...IMAGES, 'application/pdf'],
  [DocumentType.DeathCertificate]: [...IMAGES, 'application/pdf'],
};

const startsWith = (head: Uint8Array, signature: readonly number[], offset = 0) =>
  head.length >= offset + signature.length && signature.every((byte, i) => head[offset + i] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The media type the first bytes of a file prove, from their magic numbers; undefined when they
 * prove none we accept (an executable, HTML, a ZIP, or too few bytes).
 */
export function sniffContentType(head: Uint8Array): DocumentContentType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  return undefined;
}

export function isAllowedContent(documentType: DocumentType, contentType: DocumentContentType): boolean {
  return ALLOWED[documentType].includes(contentType);
}

const LABELS: Record<DocumentContentType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'application/pdf': 'PDF',
};

/** "JPEG, PNG or WebP", for messages that tell the partner what to send instead. */
export function describeAllowed(documentType: DocumentType): string {
  const labels = ALLOWED[documentType].map((type) => LABELS[type]);
  const last = present(labels[labels.length - 1], `an allowed content type of ${documentType}`);
  return labels.length === 1 ? last : `${labels.slice(0, -1).join(', ')} or ${last}`;
}

export function isDocumentType(value: string): value is DocumentType {
  return Object.values<string>(DocumentType).includes(value);
}
