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

/** Text as pdfkit's embedded font lays it out: fontkit's glyphs, their positions in 1,000ths of an em, the width. */
export interface LaidOutText {
  glyphs: fontkit.Glyph[];
  positions: fontkit.GlyphPosition[];
  advanceWidth: number;
}

/** Answers what is kept under `key`, keeping what `make` gives the first time. */
export type Remember = (key: string, make: () => LaidOutText) => LaidOutText;

/** pdfkit's embedded font (EmbeddedFont): the parsed font it was made of and its layout steps. */
interface PdfkitEmbeddedFont {
  font?: fontkit.Font;
  layoutRun?(text: string): LaidOutText;
  layout(text: string, features?: unknown, onlyWidth?: boolean): LaidOutText;
  layoutCached?(text: string): LaidOutText;
}

const SHARING = new WeakSet<object>();

/**
 * Makes the document's current font keep its layouts where `sharedBy` says for its parsed font,
 * instead of in pdfkit's cache of one document: a word as `words` (pdfkit lays a text out word by
 * word, each scaled to 1,000ths of an em), a whole text as `texts` (what measuring and drawing it
 * ask for again). A text with OpenType features given is laid out afresh, as pdfkit does. What is
 * kept is only read afterwards: pdfkit copies a position before changing it (word spacing) and
 * concatenates the words' arrays into new ones. A standard font, or one `sharedBy` does not know,
 * keeps pdfkit's own cache.
 */
export function shareCurrentFontLayouts(
  doc: PDFKit.PDFDocument,
  sharedBy: (font: fontkit.Font) => { words: Remember; texts: Remember } | undefined,
): void {
  const embedded = textState(doc)._font as unknown as PdfkitEmbeddedFont;
  if (SHARING.has(embedded)) return;
  SHARING.add(embedded);
  const shared = embedded.font === undefined ? undefined : sharedBy(embedded.font);
  if (shared === undefined || embedded.layoutRun === undefined) return;
  const layoutRun = embedded.layoutRun.bind(embedded);
  const layout = embedded.layout.bind(embedded);
  embedded.layoutCached = (text) => shared.words(text, () => layoutRun(text));
  embedded.layout = (text, features, onlyWidth) =>
    features === undefined ? shared.texts(text, () => layout(text)) : layout(text, features, onlyWidth);
}

/** The glyph ids a fontkit subset holds, in the order the embedded font numbers them. */
export function subsetGlyphIds(subset: fontkit.Subset): readonly number[] {
  return (subset as unknown as { glyphs: number[] }).glyphs;
}
