import { DocumentType } from './document-type';
import { pdfProblem, type PdfVerdict } from './pdf-active-content';
import { imageProblem } from './image-dimensions';
import {
  describeAllowed,
  isAllowedContent,
  isDocumentType,
  sniffContentType,
  type DocumentContentType,
} from './document-content';

export interface UploadFacts {
  documentType?: string;
  /** Absent when the request had no file part. */
  file?: { size: number; leadingBytes: Uint8Array };
}

export type UploadVerdict =
  | { accepted: true; documentType: DocumentType; contentType: DocumentContentType }
  | { accepted: false; reason: string };

const TYPES = Object.values(DocumentType).join(', ');

/**
 * Whether an upload may become a draft document; the reason is the message the partner reads.
 * An accepted PDF is judged further, off the event loop (PdfCheckPool), and refused by pdfRefusal.
 */
export function judgeUpload({ documentType, file }: UploadFacts): UploadVerdict {
  if (!file) return { accepted: false, reason: 'File is required: send it in the multipart part named "file"' };
  if (documentType === undefined || documentType.trim() === '') {
    return { accepted: false, reason: `documentType is required: one of ${TYPES}` };
  }
  if (!isDocumentType(documentType)) return { accepted: false, reason: `documentType must be one of ${TYPES}` };
  if (file.size === 0) return { accepted: false, reason: 'File is empty' };
  const contentType = sniffContentType(file.leadingBytes);
  if (!contentType) {
    return {
      accepted: false,
      reason: `File content is not an accepted type for ${documentType}; use ${describeAllowed(documentType)}`,
    };
  }
  if (!isAllowedContent(documentType, contentType)) {
    return {
      accepted: false,
      reason: `File type ${contentType} is not allowed for ${documentType}; use ${describeAllowed(documentType)}`,
    };
  }
  const problem = contentType === 'application/pdf' ? undefined : imageProblem(contentType, file.leadingBytes);
  if (problem) return { accepted: false, reason: `File ${problem}; use ${describeAllowed(documentType)}` };
  return { accepted: true, documentType, contentType };
}

/** The reason a PDF the judge found active or could not decide is refused; undefined for one that only shows pages. */
export function pdfRefusal(documentType: DocumentType, verdict: PdfVerdict): string | undefined {
  const problem = pdfProblem(verdict);
  return problem && `File ${problem}; use ${describeAllowed(documentType)}`;
}
