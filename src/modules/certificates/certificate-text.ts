import {
  faceNamed,
  fontRuns,
  sharedPdfkitLayouts,
  type CertificateFonts,
  type CjkFamily,
  type FontWeight,
} from './certificate-fonts';
import { currentFont, featuresTurnedOff, shareCurrentFontLayouts } from '../../kernel/pdfkit-adapter';

export interface TextStyle {
  weight?: FontWeight;
  /** Whose forms Han characters take when the text itself does not say (certificate-fonts.ts). */
  cjk?: CjkFamily;
  size?: number;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
}

/** A piece of text at its place. */
export interface Placed {
  text: string;
  x: number;
  y: number;
  style: TextStyle;
}

export interface Write {
  (text: string, x: number | undefined, y: number | undefined, style?: TextStyle): void;
  /**
   * A label and its value side by side, read by text extraction as one line, "label value": two
   * columns 150 points apart are two blocks to pdftotext, which printed a row's label and its value
   * on lines of their own. Answers the lowest `doc.y` the two left.
   */
  labelled(label: Placed, value: Placed): number;
  /** The width of `text` on one line, in the faces that draw it. */
  widthOf(text: string, style: TextStyle): number;
}

export const INK = '#1b2733';

/** Between the end a label's text layer reaches and its value: under a third of an em, read as one space. */
const LABEL_TO_VALUE_GAP = 3;

/** Registered by the document before any text: the labels use them, and the specimen mark is measured in the bold one. */
export const LATIN_FACES = ['latin-regular', 'latin-bold'] as const;

/**
 * Makes the registered `face` the document's font, as doc.font(face) does, with pdfkit's layouts
 * of its words and texts kept across documents (certificate-fonts.ts): each certificate measures
 * and draws mostly the same labels. Every text of the certificate selects its face through here.
 */
export function selectFace(doc: PDFKit.PDFDocument, face: string): PDFKit.PDFDocument {
  doc.font(face);
  shareCurrentFontLayouts(doc, sharedPdfkitLayouts);
  return doc;
}

/** Hebrew, Arabic, Syriac, Thaana, NKo... and their presentation forms: text the bidi algorithm reorders. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * Draws `text` in runs of the faces that have its glyphs. Text that is not all in the Latin faces
 * may be read back in glyph order, not as written (a Devanagari reph is drawn after the consonant
 * it precedes, a Thai leading vowel likewise): it is marked with its logical text as /ActualText,
 * so copying, screen readers and pdftotext get the name as written. Right-to-left text is not:
 * its glyphs, drawn in visual order, each give their characters, and readers put a right-to-left
 * run back in logical order themselves; poppler does so to an /ActualText too, and so read a
 * logical one backwards.
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
    selectFace(doc, face);
  };
  /**
   * What `draw` draws, read as `actual` (/ActualText). pdfkit flips the y axis inside each text
   * operation only. Poppler (pdftotext) places an /ActualText with the transformation in force at
   * its EMC, so with the page's own it put the name upside down on the page, far from its "Name"
   * label. The span is therefore opened and closed under the same flip as the glyphs: flip, BDC,
   * flip back, the text, flip, EMC; the q/Q around it leave the page's transformation as it was.
   * Poppler also sizes the span with the font it last drew text in: an empty, invisible show in the
   * last run's font just before the EMC gives it that font's height (without one it was 1 point
   * high, and pdftotext put the name on a line of its own below its label).
   */
  const readAs = (actual: string, draw: () => void) => {
    const flip = `1 0 0 -1 0 ${doc.page.height} cm`;
    doc.addContent(`q ${flip}`);
    doc.markContent('Span', { actual });
    doc.addContent(flip);
    draw();
    const { font, size } = currentFont(doc);
    doc.addContent(`${flip} BT /${font.id} ${size} Tf 3 Tr () Tj ET`);
    doc.endMarkedContent();
    doc.addContent('Q');
  };
  /**
   * A line of runs in several faces (Latin and Arabic words in one name) sits on one baseline, the
   * Latin face's, as its label does: pdfkit places each run by its own face's ascender, and the
   * Arabic face's is 5 points taller at 10 points, so its words sat below the line's Latin ones
   * (decision record 0103). Undefined for a line in one face, which keeps its face's own.
   */
  const sharedBaseline = (runs: ReadonlyArray<{ face: string }>, style: TextStyle): number | undefined => {
    if (new Set(runs.map((run) => run.face)).size < 2) return undefined;
    useFace(style.weight === 'bold' ? 'latin-bold' : 'latin-regular');
    const { font } = currentFont(doc);
    // pdfkit reads a number as the baseline's offset above `y`, negative for below.
    return -(font.ascender / 1000) * (style.size ?? 10);
  };
  const runsOf = (text: string, style: TextStyle) =>
    fontRuns(fonts, text.length > 0 ? text : ' ', style.weight ?? 'regular', style.cjk);
  const drawRuns = (
    runs: ReturnType<typeof runsOf>,
    x: number | undefined,
    y: number | undefined,
    style: TextStyle,
  ) => {
    doc.fontSize(style.size ?? 10).fillColor(style.color ?? INK);
    const baseline = sharedBaseline(runs, style);
    runs.forEach((run, index) => {
      const options = {
        width: style.width,
        align: style.align,
        continued: index < runs.length - 1,
        lineGap: 1,
        features: featuresOf(run.face),
        baseline,
      };
      useFace(run.face);
      if (index === 0 && x !== undefined) doc.text(run.text, x, y, options);
      else doc.text(run.text, options);
    });
  };
  const drawLine = (text: string, x: number | undefined, y: number | undefined, style: TextStyle) => {
    const runs = runsOf(text, style);
    if (runs.every((run) => /^latin-/.test(run.face)) || RIGHT_TO_LEFT.test(text)) drawRuns(runs, x, y, style);
    else readAs(text, () => drawRuns(runs, x, y, style));
  };
  const widthOf = (text: string, style: TextStyle) =>
    fontRuns(fonts, text, style.weight ?? 'regular', style.cjk).reduce((width, run) => {
      useFace(run.face);
      return width + doc.fontSize(style.size ?? 10).widthOfString(run.text, { features: featuresOf(run.face) });
    }, 0);
  const write = (text: string, x: number | undefined, y: number | undefined, style: TextStyle = {}) => {
    if (style.width === undefined || !RIGHT_TO_LEFT.test(text)) return drawLine(text, x, y, style);
    const lines = logicalLines(text, style.width, (line) => widthOf(line, style));
    // A right-to-left value of several lines starts each at the right, where such text begins (decision record 0100).
    const lineStyle = lines.length > 1 && style.align === undefined ? { ...style, align: 'right' as const } : style;
    lines.forEach((line, index) => drawLine(line, x ?? doc.x, index === 0 ? (y ?? doc.y) : doc.y, lineStyle));
  };
  /** Where pdfkit puts the baseline of `text`'s first line drawn at `y`: its first run's face's ascender below (a mixed line's: the Latin face's). */
  const baselineOf = ({ text, y, style }: Placed) => {
    const runs = runsOf(text, style);
    const shared = sharedBaseline(runs, style);
    if (shared !== undefined) return y - shared;
    useFace(runs[0]?.face ?? 'latin-regular');
    const { font } = currentFont(doc);
    return y + (font.ascender / 1000) * (style.size ?? 10);
  };
  const labelled = (label: Placed, value: Placed) => {
    let afterLabel = 0;
    // Two inkless spaces on the value's baseline, one where the label starts and one just before
    // the value: poppler spans the label's /ActualText from its first glyph to its last, so the
    // label reaches its value on the value's baseline (the Arabic face's sits 6 points below the
    // label's), and pdftotext reads the two as one line.
    const size = label.style.size ?? 10;
    const spaceWidth = selectFace(doc, 'latin-regular').fontSize(size).widthOfString(' ');
    const spaceTop = baselineOf(value) - baselineOf({ text: ' ', x: 0, y: 0, style: { size } });
    const inklessSpace = (x: number) => {
      selectFace(doc, 'latin-regular').fontSize(size).text(' ', x, spaceTop, { lineBreak: false });
    };
    readAs(label.text, () => {
      inklessSpace(label.x);
      drawRuns(runsOf(label.text, label.style), label.x, label.y, label.style);
      afterLabel = doc.y;
      inklessSpace(value.x - LABEL_TO_VALUE_GAP - spaceWidth);
    });
    write(value.text, value.x, value.y, value.style);
    return Math.max(afterLabel, doc.y);
  };
  return Object.assign(write, { labelled, widthOf });
}

/**
 * The OpenType features an Arabic run is shaped with: all of fontkit's defaults but `ccmp`, which
 * in the Arabic face splits a dotted letter into its dotless base and a dot mark. The base glyph
 * is shared by several letters (ر and ز, س and ش, ب ت ث ن ي), and a ToUnicode map gives a glyph one
 * meaning only: pdftotext read "الرزاز" as "الزرار" and "شريف" as "سزيف". Without it each letter is
 * its own precomposed glyph, drawn the same, and every glyph reads back as its letter (decision
 * record 0100). Other faces keep pdfkit's default (undefined: its per-word layout cache).
 */
const ARABIC_FEATURES = featuresTurnedOff({ ccmp: false });

function featuresOf(face: string): PDFKit.Mixins.OpenTypeFeatures[] | undefined {
  return face.startsWith('arabic-') ? ARABIC_FEATURES : undefined;
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
