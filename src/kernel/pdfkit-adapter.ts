import type * as fontkit from 'fontkit';

/**
 * The one file that reaches into pdfkit's and fontkit's internals, which their typings do not
 * name: the certificate (certificates/certificate-text.ts, certificate-fonts.ts) and the
 * commission statement (commissions/statement-pdf.ts) read the current font the way pdfkit's own
 * text() does, and trim fontkit's glyph cache (decision records 0087, 0100, 0105). Each reach is
 * one cast, here and nowhere else. Written against these versions: test/kernel/pdfkit-adapter.test.ts
 * fails when the installed ones differ, and drives each accessor on a real document, so an
 * upgrade is checked here before its version is written below.
 */
export const PDFKIT_VERSION = '0.20.2';
export const FONTKIT_VERSION = '2.0.4';

/** pdfkit's current font: its resource name, ascender (per 1,000 units) and the reference text() lists. */
export interface PdfkitFont {
  id: string;
  ascender: number;
  ref(): unknown;
}

/** The document's state pdfkit's text() reads and writes. */
interface PdfkitTextState {
  _font: PdfkitFont;
  _fontSize: number;
  page: { fonts: Record<string, unknown> };
}

const textState = (doc: PDFKit.PDFDocument) => doc as unknown as PdfkitTextState;

/** The font and size the document's next text() would use. */
export function currentFont(doc: PDFKit.PDFDocument): { font: PdfkitFont; size: number } {
  const state = textState(doc);
  return { font: state._font, size: state._fontSize };
}

/** Lists the current font in the page's resources, as text() would before drawing, and returns it. */
export function listCurrentFontOnPage(doc: PDFKit.PDFDocument): PdfkitFont {
  const state = textState(doc);
  state.page.fonts[state._font.id] ??= state._font.ref();
  return state._font;
}

/**
 * OpenType features turned off, in the shape text()'s `features` option carries them: pdfkit's
 * types name only a list of features to turn on; it hands `features` to fontkit as is, which
 * takes an object that turns one off.
 */
export function featuresTurnedOff(features: Record<string, false>): PDFKit.Mixins.OpenTypeFeatures[] {
  return features as unknown as PDFKit.Mixins.OpenTypeFeatures[];
}

/** fontkit's glyph objects of a font, by glyph id, with the characters of each one's first use. */
export function glyphCache(font: fontkit.Font): Record<number, { codePoints: number[] } | undefined> {
  return (font as unknown as { _glyphs: Record<number, { codePoints: number[] } | undefined> })._glyphs;
}
