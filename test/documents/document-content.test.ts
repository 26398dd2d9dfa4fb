import fs from 'node:fs';
import path from 'node:path';
import {
  describeAllowed,
  isAllowedContent,
  sniffContentType,
} from '../../src/modules/documents/rules/document-content';
import { judgeUpload } from '../../src/modules/documents/rules/document-upload';
import { DocumentType } from '../../src/modules/documents/entities/document';
import { FILES } from '../support/documents';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => Buffer.from(value, 'latin1');
const EXAMPLES = path.resolve(__dirname, '../../examples/files');

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
  const png = { size: FILES.png.length, leadingBytes: FILES.png };
  const pdf = { size: FILES.pdf.length, leadingBytes: FILES.pdf };

  it('accepts a PNG avatar and reports the sniffed type', () => {
    expect(judgeUpload({ documentType: 'AVATAR', file: png })).toEqual({
      accepted: true,
      documentType: 'AVATAR',
      contentType: 'image/png',
    });
  });

  it.each([
    ['no file', { documentType: 'AVATAR' }, /File is required/],
    ['no documentType', { file: png }, /documentType is required/],
    [
      'an unknown documentType',
      { documentType: 'SELFIE', file: png },
      /documentType must be one of AVATAR, PASSPORT, SIGNATURE, VISA/,
    ],
    ['an empty file', { documentType: 'AVATAR', file: { size: 0, leadingBytes: bytes() } }, /File is empty/],
    [
      'a PDF signature',
      { documentType: 'SIGNATURE', file: pdf },
      /File type application\/pdf is not allowed for SIGNATURE; use JPEG, PNG or WebP/,
    ],
    [
      'unrecognised content',
      { documentType: 'PASSPORT', file: { size: 20, leadingBytes: text('<html><body>hi</b') } },
      /not an accepted type for PASSPORT; use JPEG, PNG, WebP or PDF/,
    ],
  ])('refuses %s with a clear reason', (_name, facts, reason) => {
    const verdict = judgeUpload(facts);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) expect(verdict.reason).toMatch(reason);
  });
});

describe('judgeUpload looks past the magic bytes (issue 14)', () => {
  const judged = (documentType: string, bytes: Buffer) =>
    judgeUpload({ documentType, file: { size: bytes.length, leadingBytes: bytes } });
  /** A PNG header (signature and IHDR chunk) claiming the given size; image-size reads no further. */
  const pngClaiming = (width: number, height: number) => {
    const ihdr = Buffer.alloc(25);
    ihdr.writeUInt32BE(13, 0);
    ihdr.write('IHDR', 4, 'latin1');
    ihdr.writeUInt32BE(width, 8);
    ihdr.writeUInt32BE(height, 12);
    ihdr.writeUInt8(8, 16);
    ihdr.writeUInt8(6, 17);
    return Buffer.concat([FILES.png.subarray(0, 8), ihdr]);
  };

  it.each<[string, string, Buffer]>([
    ['the PNG test file', 'AVATAR', FILES.png],
    ['the JPEG test file', 'AVATAR', FILES.jpeg],
    ['the WebP test file', 'SIGNATURE', FILES.webp],
    ['the PDF test file', 'PASSPORT', FILES.pdf],
    ...fs
      .readdirSync(EXAMPLES)
      .map(
        (name) =>
          [
            `examples/files/${name}`,
            name.endsWith('.pdf') ? 'PASSPORT' : 'AVATAR',
            fs.readFileSync(path.join(EXAMPLES, name)),
          ] as [string, string, Buffer],
      ),
  ])('accepts %s', (_name, documentType, bytes) => {
    expect(judged(documentType, bytes)).toMatchObject({ accepted: true });
  });

  it.each<[string, string, Buffer, RegExp]>([
    [
      'a PNG signature followed by a script',
      'AVATAR',
      Buffer.concat([FILES.png.subarray(0, 8), Buffer.from('<script>alert(1)</script>')]),
      /not a readable image/,
    ],
    [
      'a JPEG signature followed by HTML',
      'AVATAR',
      Buffer.concat([FILES.jpeg.subarray(0, 3), Buffer.from('<html><script>alert(1)</script></html>')]),
      /not a readable image/,
    ],
    [
      'a PNG of 100,000 x 100,000 pixels',
      'AVATAR',
      pngClaiming(100_000, 100_000),
      /implausible dimensions 100000x100000/,
    ],
    ['a PNG of 0 x 10 pixels', 'SIGNATURE', pngClaiming(0, 10), /implausible dimensions|not a readable image/],
  ])('refuses %s with a reason', (_name, documentType, bytes, reason) => {
    const verdict = judged(documentType, bytes);
    expect(verdict.accepted).toBe(false);
    if (!verdict.accepted) expect(verdict.reason).toMatch(reason);
  });
});
