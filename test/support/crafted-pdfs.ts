import { deflateSync } from 'node:zlib';

/**
 * PDFs of issue 30, built byte for byte (deterministic): a one-page PDF 1.5 whose catalogue sits
 * in an object stream, found through a cross-reference stream, the way PDF readers resolve it.
 */

/** The catalogue of the attacks: a script run when the file is opened. */
const SCRIPTED_CATALOGUE = '<</Type /Catalog /Pages 2 0 R /OpenAction <</S /JavaScript /JS (app.alert\\(1\\))>>>>';
const PLAIN_CATALOGUE = '<</Type /Catalog /Pages 2 0 R>>';
const PAGES = '<</Type /Pages /Kids [3 0 R] /Count 1>>';
const PAGE = '<</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]>>';

interface ObjectStream {
  /** The stream dictionary's entries besides /Type, /N, /First and /Length. */
  dictionary: string;
  /** Encodes the stream's decoded bytes as its filters say. */
  encode: (decoded: Buffer) => Buffer;
  catalogue?: string;
  /** Whitespace between the stream's header and its objects, which a reader decodes to reach them. */
  padding?: number;
  /** Bytes of comment after the file header, to bring the file to a given size. */
  filler?: number;
}

const hex = (bytes: Buffer) => Buffer.from(`${bytes.toString('hex')}>`, 'latin1');

/**
 * Objects 1 (catalogue) and 2 (page tree) in object stream 4, the page as object 3, and the
 * cross-reference stream as object 5 (uncompressed, W [1 4 2]).
 */
export function pdfWithObjectStream({
  dictionary,
  encode,
  catalogue = SCRIPTED_CATALOGUE,
  padding = 0,
  filler = 0,
}: ObjectStream): Buffer {
  const members = [catalogue, PAGES];
  const offsets: number[] = [];
  let body = ' '.repeat(padding);
  for (const member of members) {
    offsets.push(body.length);
    body += `${member}\n`;
  }
  const header = `1 ${offsets[0]} 2 ${offsets[1]}\n`;
  const encoded = encode(Buffer.from(header + body, 'latin1'));

  const parts: Buffer[] = [];
  let length = 0;
  const add = (part: Buffer | string) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  add('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n');
  if (filler > 0) add(commentFiller(filler));
  const objectOffsets = new Map<number, number>();
  objectOffsets.set(3, length);
  add(`3 0 obj\n${PAGE}\nendobj\n`);
  objectOffsets.set(4, length);
  add(`4 0 obj\n<</Type /ObjStm /N 2 /First ${header.length} ${dictionary} /Length ${encoded.length}>>\nstream\n`);
  add(encoded);
  add('\nendstream\nendobj\n');

  const xrefOffset = length;
  const entry = (type: number, field2: number, field3: number) => {
    const row = Buffer.alloc(7);
    row.writeUInt8(type, 0);
    row.writeUInt32BE(field2, 1);
    row.writeUInt16BE(field3, 5);
    return row;
  };
  const rows = Buffer.concat([
    entry(0, 0, 65535),
    entry(2, 4, 0),
    entry(2, 4, 1),
    entry(1, objectOffsets.get(3) ?? 0, 0),
    entry(1, objectOffsets.get(4) ?? 0, 0),
    entry(1, xrefOffset, 0),
  ]);
  add(`5 0 obj\n<</Type /XRef /Size 6 /Root 1 0 R /W [1 4 2] /Length ${rows.length}>>\nstream\n`);
  add(rows);
  add(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** Comment lines of deterministic pseudo-random letters (they do not compress away). */
function commentFiller(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let state = 30;
  for (let i = 0; i < size; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    bytes[i] = i % 80 === 0 ? 0x25 : i % 80 === 79 ? 0x0a : 0x61 + (state % 26);
  }
  bytes[size - 1] = 0x0a;
  return bytes;
}

/** The four ways issue 30 hid `/OpenAction /JavaScript` from the byte-scanning check. */
export const HIDDEN_SCRIPT_PDFS: [string, Buffer][] = [
  [
    'a #-escaped /Fl#61teDecode filter',
    pdfWithObjectStream({ dictionary: '/Filter /Fl#61teDecode', encode: (decoded) => deflateSync(decoded) }),
  ],
  ['an /ASCIIHexDecode filter', pdfWithObjectStream({ dictionary: '/Filter /ASCIIHexDecode', encode: hex })],
  [
    'the filter chain [/ASCIIHexDecode /FlateDecode]',
    pdfWithObjectStream({
      dictionary: '/Filter [/ASCIIHexDecode /FlateDecode]',
      encode: (decoded) => hex(deflateSync(decoded)),
    }),
  ],
  [
    'an object stream mislabelled /Subtype /Image',
    pdfWithObjectStream({
      dictionary: '/Subtype /Image /Filter /FlateDecode',
      encode: (decoded) => deflateSync(decoded),
    }),
  ],
];

/** The same structure with a catalogue that only shows pages: what a PDF writer of today produces. */
export const PLAIN_OBJECT_STREAM_PDF = pdfWithObjectStream({
  dictionary: '/Filter /FlateDecode',
  encode: (decoded) => deflateSync(decoded),
  catalogue: PLAIN_CATALOGUE,
});

export const HEAVY_PDF_BYTES = 64 * 1024;
export const HEAVY_PDF_INFLATED_BYTES = 21 * 1024 * 1024;

/**
 * Issue 30's small PDF that holds a server: 64 KiB whose object stream inflates to 21 MiB (its
 * members sit after 21 MiB of whitespace, so a reader must inflate it all to reach them).
 */
export function heavyPdf(): Buffer {
  const stream = {
    dictionary: '/Filter /FlateDecode',
    encode: (decoded: Buffer) => deflateSync(decoded, { level: 9 }),
    catalogue: PLAIN_CATALOGUE,
  };
  const padding = HEAVY_PDF_INFLATED_BYTES - 200;
  const bare = pdfWithObjectStream({ ...stream, padding });
  return pdfWithObjectStream({ ...stream, padding, filler: HEAVY_PDF_BYTES - bare.length });
}
