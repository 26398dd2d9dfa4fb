import { inflateSync } from 'node:zlib';
import { present } from '../../../kernel/narrow';

/**
 * Names that make a PDF do something when opened or clicked rather than only show pages: scripts,
 * actions run on opening or on events, launching programs, files carried inside, rich media,
 * forms that send data. A passport or visa scan needs none of them.
 */
const ACTIVE_NAMES = new Set([
  'JavaScript', 'JS', 'OpenAction', 'AA', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'RichMedia', 'XFA', 'SubmitForm', 'ImportData',
]);

// A PDF name: a slash and the regular characters after it (PDF 32000-1, 7.2.2 and 7.3.5).
const NAME = /\/([^\s()<>[\]{}/%]*)/g;
const STREAM_START = /\bstream(?:\r\n|\r|\n)/g;

/** What inflating the compressed streams of one file may produce at most, against zip bombs. */
const INFLATE_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * The first active name in a PDF, also written with `#xx` escapes (`/J#61vaScript`) or inside a
 * compressed (Flate) stream, such as an object stream holding the catalogue's `/OpenAction`;
 * undefined for a PDF that only shows pages. Image streams are not inflated: they hold pixels.
 */
export function pdfActiveContent(pdf: Uint8Array): string | undefined {
  const text = Buffer.from(pdf).toString('latin1');
  const found = activeName(text);
  if (found) return found;
  let budget = INFLATE_BUDGET_BYTES;
  for (const match of text.matchAll(STREAM_START)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    const dictionary = text.slice(Math.max(0, text.lastIndexOf('obj', match.index)), match.index);
    if (end === -1 || !/\/FlateDecode\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    let inflated: Buffer;
    try {
      inflated = inflateSync(pdf.subarray(start, end), { maxOutputLength: Math.max(1, budget) });
    } catch (error) {
      // Over the budget the file cannot be judged, which is a refusal; a broken stream shows nothing.
      if (error instanceof RangeError) return 'a compressed stream too large to check';
      continue;
    }
    budget -= inflated.length;
    const hidden = activeName(inflated.toString('latin1'));
    if (hidden) return hidden;
  }
  return undefined;
}

function activeName(text: string): string | undefined {
  for (const [, group] of text.matchAll(NAME)) {
    const raw = present(group, 'the characters of a PDF name');
    const name = raw.includes('#') ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : raw;
    if (ACTIVE_NAMES.has(name)) return `/${name}`;
  }
  return undefined;
}
