import { faceNamed, fontRuns, type CertificateFonts, type CjkFamily, type FontWeight } from './certificate-fonts';

export interface TextStyle {
  weight?: FontWeight;
  /** Whose forms Han characters take when the text itself does not say (certificate-fonts.ts). */
  cjk?: CjkFamily;
  size?: number;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
}

export type Write = (text: string, x: number | undefined, y: number | undefined, style?: TextStyle) => void;

export const INK = '#1b2733';

/** Registered by the document before any text: the labels use them, and the specimen mark is measured in the bold one. */
export const LATIN_FACES = ['latin-regular', 'latin-bold'] as const;

/** Hebrew, Arabic, Syriac, Thaana, NKo... and their presentation forms: text the bidi algorithm reorders. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * Draws `text` in runs of the faces that have its glyphs. Text that is not all in the Latin faces
 * may be read back in glyph order, not as written (a Devanagari reph is drawn after the consonant
 * it precedes, Arabic and Hebrew right to left): it is marked with its logical text as
 * /ActualText, so copying and screen readers get the name as written.
 *
 * Right-to-left text that may wrap is cut into lines here, in logical order, and each line is then
 * put in visual order and drawn on its own: reordered whole and wrapped by pdfkit afterwards, the
 * first line printed would hold the end of the name (UAX #9 reorders per line, after breaking).
 */
export function writer(doc: PDFKit.PDFDocument, fonts: CertificateFonts): Write {
  const registered = new Set<string>(LATIN_FACES);
  const useFace = (face: string) => {
    if (!registered.has(face)) {
      doc.registerFont(face, faceNamed(fonts, face).font);
      registered.add(face);
    }
    doc.font(face);
  };
  const drawLine = (text: string, x: number | undefined, y: number | undefined, style: TextStyle) => {
    const runs = fontRuns(fonts, text.length > 0 ? text : ' ', style.weight ?? 'regular', style.cjk);
    const marked = runs.some((run) => !/^latin-/.test(run.face));
    // pdfkit flips the y axis inside each text operation only. Poppler (pdftotext) places an
    // /ActualText with the transformation in force at its EMC, so with the page's own it put the
    // name upside down on the page, far from its "Name" label. The span is therefore opened and
    // closed under the same flip as the glyphs: flip, BDC, flip back, the text, flip, EMC; the
    // q/Q around it leave the page's transformation as it was.
    const flip = `1 0 0 -1 0 ${doc.page.height} cm`;
    if (marked) {
      doc.addContent(`q ${flip}`);
      doc.markContent('Span', { actual: text });
      doc.addContent(flip);
    }
    doc.fontSize(style.size ?? 10).fillColor(style.color ?? INK);
    runs.forEach((run, index) => {
      const options = { width: style.width, align: style.align, continued: index < runs.length - 1, lineGap: 1 };
      useFace(run.face);
      if (index === 0 && x !== undefined) doc.text(run.text, x, y, options);
      else doc.text(run.text, options);
    });
    if (marked) {
      // The span's height is taken from the font in force at its EMC too: without one it has none,
      // and pdftotext puts the name on a line of its own below its label.
      const { _font: font, _fontSize: size } = doc as unknown as { _font: { id: string }; _fontSize: number };
      doc.addContent(`${flip} /${font.id} ${size} Tf`);
      doc.endMarkedContent();
      doc.addContent('Q');
    }
  };
  const widthOf = (text: string, style: TextStyle) =>
    fontRuns(fonts, text, style.weight ?? 'regular', style.cjk).reduce((width, run) => {
      useFace(run.face);
      return width + doc.fontSize(style.size ?? 10).widthOfString(run.text);
    }, 0);
  return (text, x, y, style = {}) => {
    if (style.width === undefined || !RIGHT_TO_LEFT.test(text)) return drawLine(text, x, y, style);
    const lines = logicalLines(text, style.width, (line) => widthOf(line, style));
    lines.forEach((line, index) => drawLine(line, x ?? doc.x, index === 0 ? (y ?? doc.y) : doc.y, style));
  };
}

/**
 * `text` broken into lines of at most `width` (as `widthOf` measures), between words, in logical
 * order. A word wider than a line has a line of its own (pdfkit then breaks it where it must).
 */
export function logicalLines(text: string, width: number, widthOf: (line: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(?<=\s)(?=\S)/u)) {
    const candidate = line + word;
    // A point of slack: pdfkit measures the drawn runs again and must not break them once more.
    if (line !== '' && widthOf(candidate.trimEnd()) > width - 1) {
      lines.push(line.trimEnd());
      line = word;
    } else line = candidate;
  }
  lines.push(line.trimEnd());
  return lines;
}
