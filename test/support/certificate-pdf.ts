import { execFile } from 'node:child_process';
import path from 'node:path';
import { fontRuns, loadCertificateFonts } from '../../src/modules/certificates/certificate-fonts';

export interface ReadPdf {
  /** The text of every page, whitespace collapsed to single spaces. */
  text: string;
  /** Each page's size in points, its links, and its own text (whitespace as extracted). */
  pages: Array<{ width: number; height: number; links: string[]; text: string }>;
  title: string | null;
}

/** What PDF.js (through pdf-parse) reads from `pdf`; see pdf-reader.mjs. */
export function readPdf(pdf: Buffer): Promise<ReadPdf> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [path.join(__dirname, 'pdf-reader.mjs')], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`pdf-reader failed: ${stderr || error.message}`));
      const read = JSON.parse(stdout) as ReadPdf;
      resolve({ ...read, text: read.text.replace(/\s+/g, ' ') });
    });
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
      const face = fonts.faces.find((candidate) => candidate.name === run.face);
      if (!face) throw new Error(`no face ${run.face}`);
      return face.font.layout(run.text).glyphs.map((glyph) => String.fromCodePoint(...glyph.codePoints)).join('');
    })
    .join('')
    .replace(/\s+/g, ' ');
}
