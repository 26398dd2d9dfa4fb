import { describeAllowed, isAllowedContent, sniffContentType } from '../../src/domain/document-content';
import { judgeUpload } from '../../src/domain/document-upload';
import { DocumentType } from '../../src/entities/document';
import { FILES } from '../support/documents';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => Buffer.from(value, 'latin1');

describe('sniffContentType', () => {
  it.each([
    ['a PNG', FILES.png, 'image/png'],
    ['a JPEG', FILES.jpeg, 'image/jpeg'],
    ['a WebP', FILES.webp, 'image/webp'],
    ['a PDF', FILES.pdf, 'application/pdf'],
  ])('recognises %s from its magic bytes', (_name, file, expected) => {
    expect(sniffContentType(file.subarray(0, 12))).toBe(expected);
  });

  it.each([
    ['an ELF executable', bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0)],
    ['a Windows executable', text('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00')],
    ['an HTML page', text('<!DOCTYPE html><html>')],
    ['an SVG image', text('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['a ZIP archive', bytes(0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0, 0, 0, 0)],
    ['a RIFF that is not WebP (WAV)', text('RIFF\x24\x00\x00\x00WAVE')],
    ['a PNG signature cut short', bytes(0x89, 0x50, 0x4e, 0x47)],
    ['nothing', bytes()],
  ])('proves no accepted type for %s', (_name, head) => {
    expect(sniffContentType(head)).toBeUndefined();
  });
});

describe('document types and their contents', () => {
  it('accepts only images for AVATAR and SIGNATURE', () => {
    for (const type of [DocumentType.Avatar, DocumentType.Signature]) {
      expect(isAllowedContent(type, 'image/webp')).toBe(true);
      expect(isAllowedContent(type, 'application/pdf')).toBe(false);
      expect(describeAllowed(type)).toBe('JPEG, PNG or WebP');
    }
  });

  it('accepts a PDF as well for PASSPORT and VISA', () => {
    for (const type of [DocumentType.Passport, DocumentType.Visa]) {
      expect(isAllowedContent(type, 'application/pdf')).toBe(true);
      expect(describeAllowed(type)).toBe('JPEG, PNG, WebP or PDF');
    }
  });
});

describe('judgeUpload', () => {
  const png = { size: FILES.png.length, head: FILES.png.subarray(0, 12) };
  const pdf = { size: FILES.pdf.length, head: FILES.pdf.subarray(0, 12) };

  it('accepts a PNG avatar and reports the sniffed type', () => {
    expect(judgeUpload({ documentType: 'AVATAR', file: png })).toEqual({ accepted: true, documentType: 'AVATAR', contentType: 'image/png' });
  });

  it.each([
    ['no file', { documentType: 'AVATAR' }, /File is required/],
    ['no documentType', { file: png }, /documentType is required/],
    ['an unknown documentType', { documentType: 'SELFIE', file: png }, /documentType must be one of AVATAR, PASSPORT, SIGNATURE, VISA/],
    ['an empty file', { documentType: 'AVATAR', file: { size: 0, head: bytes() } }, /File is empty/],
    ['a PDF signature', { documentType: 'SIGNATURE', file: pdf }, /File type application\/pdf is not allowed for SIGNATURE; use JPEG, PNG or WebP/],
    ['unrecognised content', { documentType: 'PASSPORT', file: { size: 20, head: text('<html><body>hi</b') } }, /not an accepted type for PASSPORT; use JPEG, PNG, WebP or PDF/],
  ])('refuses %s with a clear reason', (_name, facts, reason) => {
    const verdict = judgeUpload(facts);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) expect(verdict.reason).toMatch(reason);
  });
});
