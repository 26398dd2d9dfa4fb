import { faceNamed, fontRuns, type CertificateFonts, type FontWeight } from './certificate-fonts';

export interface TextStyle {
  weight?: FontWeight;
  size?: number;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
}

export type Write = (text: string, x: number | undefined, y: number | undefined, style?: TextStyle) => void;

export const INK = '#1b2733';

/** Registered by the document before any text: the labels use them, and the specimen mark is measured in the bold one. */
export const LATIN_FACES = ['latin-regular', 'latin-bold'] as const;

/**
 * Draws `text` in runs of the faces that have its glyphs. Text that is not all in the Latin faces
 * may be read back in glyph order, not as written (a Devanagari reph is drawn after the consonant
 * it precedes, Arabic and Hebrew right to left): it is marked with its logical text as
 * /ActualText, so copying and screen readers get the name as written.
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
  return (text, x, y, style = {}) => {
    const runs = fontRuns(fonts, text.length > 0 ? text : ' ', style.weight ?? 'regular');
    const marked = runs.some((run) => !/^latin-/.test(run.face));
    if (marked) doc.markContent('Span', { actual: text });
    doc.fontSize(style.size ?? 10).fillColor(style.color ?? INK);
    runs.forEach((run, index) => {
      const options = { width: style.width, align: style.align, continued: index < runs.length - 1, lineGap: 1 };
      useFace(run.face);
      if (index === 0 && x !== undefined) doc.text(run.text, x, y, options);
      else doc.text(run.text, options);
    });
    if (marked) doc.endMarkedContent();
  };
}
