import { execFile } from 'node:child_process';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import { fontRuns, loadCertificateFonts } from '../../src/modules/certificates/certificate-fonts';

/** A piece of text as PDF.js reads it, with its baseline's place in points from the page's top left corner. */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  /** How far the piece runs to the right of `x`, in points. */
  width: number;
}

export interface ReadPdf {
  /** The text of every page, whitespace collapsed to single spaces. */
  text: string;
  /** Each page's size in points, its links, its own text (whitespace as extracted) and where each piece of it sits. */
  pages: Array<{ width: number; height: number; links: string[]; text: string; items: PlacedText[] }>;
  title: string | null;
}

/** What PDF.js (through pdf-parse) reads from `pdf`; see pdf-reader.mjs. */
export function readPdf(pdf: Buffer): Promise<ReadPdf> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(__dirname, 'pdf-reader.mjs')],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`pdf-reader failed: ${stderr || error.message}`));
        const read = JSON.parse(stdout) as ReadPdf;
        // A glyph the shaper split off a character (the dot below of Vietnamese ị) maps to no
        // character of its own, and PDF.js gives its code (a C0 control) instead: left out.
        const readable = (text: string) => text.replace(/[\u0000-\u0008\u000e-\u001f]/g, '');
        resolve({
          ...read,
          text: readable(read.text).replace(/\s+/g, ' '),
          pages: read.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => ({ ...item, text: readable(item.text) })),
          })),
        });
      },
    );
    child.stdin?.end(pdf);
  });
}

const fonts = loadCertificateFonts();

/**
 * `text` as text extraction reads it back from the certificate: glyph by glyph in the order they
 * are drawn, each giving the characters it was shaped from. Latin text comes back as written;
 * a Devanagari reph (र् before a consonant) is drawn, and so read, after that consonant's
 * syllable. PDF.js ignores the /ActualText that carries the logical text (poppler reads it), so
 * a test that looks for a Devanagari name looks for its shaped glyphs, drawn with the very font
 * the certificate embeds.
 */
export function asExtracted(text: string, weight: 'regular' | 'bold' = 'regular'): string {
  return fontRuns(fonts, text, weight)
    .map((run) => {
      // Hebrew and Arabic: PDF.js reads the line left to right, so the words come in the order
      // they are drawn (the last word of the name first), and puts the letters of each
      // right-to-left word back in logical order: that is each run's own text.
      if (/^(hebrew|arabic)-/.test(run.face)) return run.text;
      const face = fonts.faces.find((candidate) => candidate.name === run.face);
      if (!face) throw new Error(`no face ${run.face}`);
      return face.font
        .layout(run.text)
        .glyphs.map((glyph) => String.fromCodePoint(...glyph.codePoints))
        .join('');
    })
    .join('')
    .replace(/\s+/g, ' ');
}

interface PdfObject {
  dict: string;
  stream?: Buffer;
}

/** The numbered objects of a PDF as pdfkit writes them (no object streams), streams inflated. */
function pdfObjects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const header = /(\d+) 0 obj\s*/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const start = header.lastIndex;
    if (!text.startsWith('<<', start)) continue;
    let depth = 0;
    let end = start;
    do {
      if (text.startsWith('<<', end)) {
        depth++;
        end += 2;
      } else if (text.startsWith('>>', end)) {
        depth--;
        end += 2;
      } else end++;
    } while (depth > 0 && end < text.length);
    const dict = text.slice(start, end);
    const object: PdfObject = { dict };
    const opening = /^\s*stream\r?\n/.exec(text.slice(end, end + 16));
    if (opening) {
      const begin = end + opening[0].length;
      const raw = pdf.subarray(begin, begin + Number(/\/Length (\d+)/.exec(dict)?.[1] ?? 0));
      object.stream = /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw;
      header.lastIndex = begin + raw.length;
    }
    objects.set(Number(match[1]), object);
  }
  return objects;
}

/** The content streams of a PDF's pages (the streams that show text), inflated, as PDF operators. */
export function contentStreams(pdf: Buffer): string[] {
  return [...pdfObjects(pdf).values()]
    .filter((object) => object.stream && !/\/(Subtype|Length1|Type)\b/.test(object.dict))
    .map((object) => object.stream?.toString('latin1') ?? '')
    .filter((stream) => /\bBT\b/.test(stream));
}

/** One font embedded in a PDF: its program (FontFile2), parsed by fontkit, and what its ToUnicode map says each glyph is. */
export interface EmbeddedFont {
  font: fontkit.Font;
  /** Glyph id (pdfkit writes Identity CIDs, so the CID is the glyph id) to the characters it stands for. */
  characters: Map<number, string>;
}

/** Every Type0 font a PDF embeds, with its subsetted TrueType program and its ToUnicode map. */
export function embeddedFonts(pdf: Buffer): EmbeddedFont[] {
  const objects = pdfObjects(pdf);
  const ref = (dict: string, key: string) => objects.get(Number(new RegExp(`/${key} \\[?(\\d+) 0 R`).exec(dict)?.[1]));
  const fonts: EmbeddedFont[] = [];
  for (const { dict } of objects.values()) {
    if (!/\/Subtype \/Type0/.test(dict)) continue;
    const descendant = ref(dict, 'DescendantFonts');
    const program = descendant && ref(descendant.dict, 'FontDescriptor');
    const file = program && ref(program.dict, 'FontFile2')?.stream;
    const toUnicode = ref(dict, 'ToUnicode')?.stream;
    if (!file || !toUnicode) throw new Error(`a Type0 font without its program or ToUnicode map: ${dict}`);
    const font = fontkit.create(file);
    if (!('getGlyph' in font)) throw new Error('an embedded font collection');
    const characters = new Map<number, string>();
    for (const range of toUnicode.toString('latin1').matchAll(/<([0-9a-f]+)> <[0-9a-f]+> \[([^\]]*)\]/gi)) {
      const first = parseInt(range[1] ?? '0', 16);
      [...(range[2] ?? '').matchAll(/<([0-9a-f ]*)>/gi)].forEach((entry, index) => {
        const units = (entry[1] ?? '')
          .split(' ')
          .filter(Boolean)
          .map((unit) => parseInt(unit, 16));
        characters.set(first + index, String.fromCharCode(...units));
      });
    }
    fonts.push({ font, characters });
  }
  return fonts;
}

/**
 * The characters of `text` that no embedded font draws: a character is drawn when some font maps
 * a glyph other than .notdef (glyph 0, the empty box) to it and fontkit finds that glyph with an
 * outline in the embedded program. A letter drawn as part of a ligature (a Devanagari conjunct)
 * counts, since its glyph stands for it. Spaces have no outline and are left out.
 */
export function charactersWithoutGlyph(pdf: Buffer, text: string): string[] {
  const fonts = embeddedFonts(pdf);
  return [...new Set(text)]
    .filter((character) => !/\s/u.test(character))
    .filter(
      (character) =>
        !fonts.some(({ font, characters }) =>
          [...characters].some(
            ([glyphId, stands]) =>
              glyphId !== 0 &&
              stands.includes(character) &&
              glyphId < font.numGlyphs &&
              font.getGlyph(glyphId).path.commands.length > 0,
          ),
        ),
    );
}
