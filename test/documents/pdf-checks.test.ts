import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { PdfCheckPool, PDF_CHECK_BUDGET } from '../../src/modules/documents/pdf-checks';
import { pdfRefusal } from '../../src/modules/documents/rules/document-upload';
import { DocumentType } from '../../src/modules/documents/entities/document';
import { FILES } from '../support/documents';
import { HEAVY_PDF_BYTES, HIDDEN_SCRIPT_PDFS, PLAIN_OBJECT_STREAM_PDF, heavyPdf } from '../support/crafted-pdfs';

const EXAMPLES = path.resolve(__dirname, '../../examples/files');
const pdfWith = (objects: string) => Buffer.from(`%PDF-1.7\n${objects}\ntrailer <</Root 1 0 R>>\n%%EOF\n`, 'latin1');

describe('the PDF judge: a real parser in a worker thread (issue 30)', () => {
  const pool = new PdfCheckPool();
  afterAll(() => pool.stop());

  it.each<[string, Buffer]>([
    ['the PDF test file', FILES.pdf],
    ['a PDF whose catalogue sits in a compressed object stream', PLAIN_OBJECT_STREAM_PDF],
    ...fs
      .readdirSync(EXAMPLES)
      .filter((name) => name.endsWith('.pdf'))
      .map((name): [string, Buffer] => [`examples/files/${name}`, fs.readFileSync(path.join(EXAMPLES, name))]),
  ])('accepts %s', async (_name, pdf) => {
    await expect(pool.check(pdf)).resolves.toEqual({ kind: 'clean' });
  });

  it.each(HIDDEN_SCRIPT_PDFS)('finds the /OpenAction script in an object stream with %s', async (_how, pdf) => {
    await expect(pool.check(pdf)).resolves.toEqual({ kind: 'active', name: '/OpenAction' });
  });

  it.each<[string, Buffer, string]>([
    [
      'a PDF that runs JavaScript on opening',
      pdfWith(
        '1 0 obj <</Type /Catalog /OpenAction 2 0 R>> endobj\n2 0 obj <</S /JavaScript /JS (app.alert(1))>> endobj',
      ),
      '/OpenAction',
    ],
    [
      'a PDF whose names hide behind #xx escapes',
      pdfWith('1 0 obj <</Type /Catalog /Open#41ction <</S /J#61vaScript /J#53 (x)>>>> endobj'),
      '/OpenAction',
    ],
    ['a PDF launching a program', pdfWith('1 0 obj <</S /Launch /F (cmd.exe)>> endobj'), '/Launch'],
    [
      'a PDF carrying a file',
      pdfWith('1 0 obj <</Type /Filespec /EF <</F 2 0 R>>>> endobj 2 0 obj <</Type /EmbeddedFile>> endobj'),
      '/EmbeddedFile',
    ],
    ['a PDF with page-event actions', pdfWith('3 0 obj <</Type /Page /AA <</O 4 0 R>>>> endobj'), '/AA'],
    [
      'a PDF whose link opens another file',
      pdfWith(
        '5 0 obj <</Type /Annot /Subtype /Link /A <</S /GoToR /F (\\\\host\\share\\x.pdf) /D [0 /Fit]>>>> endobj',
      ),
      '/GoToR',
    ],
    [
      'a PDF whose link opens a web address',
      pdfWith('5 0 obj <</Type /Annot /Subtype /Link /A <</S /URI /URI (https://evil.example/)>>>> endobj'),
      '/URI',
    ],
  ])('refuses %s, named as written', async (_name, pdf, name) => {
    await expect(pool.check(pdf)).resolves.toEqual({ kind: 'active', name });
  });

  it.each<[string, Buffer]>([
    ['bytes that only start like a PDF', Buffer.from('%PDF-1.7\nnothing a reader could show\n', 'latin1')],
    [
      'a PDF whose object stream is corrupt',
      Buffer.concat([
        PLAIN_OBJECT_STREAM_PDF.subarray(0, 200),
        Buffer.alloc(64, 0xff),
        PLAIN_OBJECT_STREAM_PDF.subarray(264),
      ]),
    ],
    // Readers find object stream members only through a cross-reference stream: this one's catalogue is nowhere.
    [
      'a PDF whose catalogue (with an OpenAction) sits in an object stream no cross-reference stream lists',
      catalogueInAnUnlistedObjectStream(),
    ],
  ])('cannot decide %s, and says so', async (_name, pdf) => {
    await expect(pool.check(pdf)).resolves.toMatchObject({ kind: 'undecidable' });
  });

  it('refuses the 64 KiB PDF whose object stream inflates to 21 MiB: over the inflated-size budget', async () => {
    const pdf = heavyPdf();
    expect(pdf.length).toBe(HEAVY_PDF_BYTES);
    await expect(pool.check(pdf)).resolves.toEqual({
      kind: 'undecidable',
      reason: 'its streams decode to more than 8 MiB',
    });
  });

  it('cannot decide a PDF that takes longer than its time budget (the worker is terminated)', async () => {
    const hurried = new PdfCheckPool({
      ...PDF_CHECK_BUDGET,
      workers: 1,
      timeoutMs: 1,
      inflatedBytes: 1024 * 1024 * 1024,
    });
    try {
      await expect(hurried.check(heavyPdf())).resolves.toEqual({
        kind: 'undecidable',
        reason: 'it took more than 0.001 s to read',
      });
    } finally {
      await hurried.stop();
    }
  });

  it('words the refusals as the other upload reasons', () => {
    expect(pdfRefusal(DocumentType.Passport, { kind: 'active', name: '/OpenAction' })).toBe(
      'File is a PDF with active content (/OpenAction): send a PDF that only shows pages; use JPEG, PNG, WebP or PDF',
    );
    expect(
      pdfRefusal(DocumentType.Visa, { kind: 'undecidable', reason: 'its streams decode to more than 8 MiB' }),
    ).toBe(
      'File is a PDF that could not be checked (its streams decode to more than 8 MiB): send a PDF that only shows pages; use JPEG, PNG, WebP or PDF',
    );
    expect(pdfRefusal(DocumentType.Passport, { kind: 'clean' })).toBeUndefined();
  });
});

function catalogueInAnUnlistedObjectStream(): Buffer {
  const members = '<</Type /Catalog /Pages 2 0 R /OpenAction 3 0 R>>\n<</S /Launch /F (cmd.exe)>>\n';
  const header = '1 0 3 50\n';
  const hidden = deflateSync(Buffer.from(header + members, 'latin1'));
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.7\n5 0 obj <</Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode /Length ${hidden.length}>>\nstream\n`,
      'latin1',
    ),
    hidden,
    Buffer.from('\nendstream\nendobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1'),
  ]);
}
