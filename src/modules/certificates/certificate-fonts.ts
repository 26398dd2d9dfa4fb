import fs from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import bidiFactory from 'bidi-js';
import { sfntFromWoff } from './woff';
import { present } from '../../kernel/narrow';
import { glyphCache, subsetGlyphIds, type LaidOutText, type Remember } from '../../kernel/pdfkit-adapter';

// pdfkit (0.16 and later) embeds an already-parsed fontkit font; its types know only files and buffers.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace PDFKit.Mixins {
    interface PDFFont {
      registerFont(name: string, src: fontkit.Font): this;
    }
  }
}

export type FontWeight = 'regular' | 'bold';

const WEIGHTS: Record<FontWeight, number> = { regular: 400, bold: 700 };
const FONT_WEIGHTS: readonly FontWeight[] = ['regular', 'bold'];

/**
 * The Noto Sans faces the certificate draws with (SIL Open Font License, from @fontsource), in
 * the order a character looks for a face. @fontsource ships each family in unicode-range
 * subsets, each a face of its own, so text is split into runs by which face has the glyphs
 * (fontRuns). Each face is converted from WOFF to TrueType and parsed once, then shared by every
 * certificate (pdfkit embeds only the glyphs a document uses); parsing per document cost 75 ms.
 *
 * Noto Sans Devanagari's Latin, Latin Extended and Devanagari (the certificate's own text) are
 * parsed at start. The others are many: Noto Sans's Latin Extended (the Ṣ and Ẹ of Yoruba names
 * the Devanagari family lacks), Vietnamese, Cyrillic and Greek, Hebrew, Arabic and Thai in both
 * weights, and Chinese, Japanese and Korean in some 120 numbered subsets each (parsing those
 * alone took 4 s). Of these only the stylesheets' `unicode-range`s are read at start; a face is
 * parsed the first time a text needs a character of its range, then kept. A range only points
 * to the candidate file (994 of the code points Noto Sans SC's ranges list are not in their
 * file): the file's cmap has the last word. CJK comes in the regular weight only: bold text
 * falls back to a regular face that has the glyph.
 */
const AT_START = { family: 'noto-sans-devanagari', subsets: ['latin', 'latin-ext', 'devanagari'] } as const;

const CJK_FAMILIES = ['sc', 'jp', 'kr'] as const;
export type CjkFamily = (typeof CJK_FAMILIES)[number];

const ON_DEMAND: ReadonlyArray<{
  family: string;
  subsets: RegExp;
  weights: readonly FontWeight[];
  name: (subset: string) => string;
  cjk?: CjkFamily;
}> = [
  {
    family: 'noto-sans',
    subsets: /^(latin-ext|vietnamese|cyrillic|cyrillic-ext|greek|greek-ext)$/,
    weights: FONT_WEIGHTS,
    name: (subset) => (subset === 'latin-ext' ? 'sans-latin-ext' : subset),
  },
  { family: 'noto-sans-hebrew', subsets: /^hebrew$/, weights: FONT_WEIGHTS, name: (subset) => subset },
  { family: 'noto-sans-arabic', subsets: /^arabic$/, weights: FONT_WEIGHTS, name: (subset) => subset },
  { family: 'noto-sans-thai', subsets: /^thai$/, weights: FONT_WEIGHTS, name: (subset) => subset },
  ...CJK_FAMILIES.map((cjk) => ({
    family: `noto-sans-${cjk}`,
    subsets: /^\d+$/,
    weights: ['regular'] as const,
    name: (subset: string) => `${cjk}-${subset}`,
    cjk,
  })),
];

export interface FontFace {
  /** The name the face is registered under in each document. */
  name: string;
  /** The @fontsource package it comes from. */
  family: string;
  weight: FontWeight;
  /** Whether the face has a glyph for `codePoint` (a face read on demand is parsed the first time it may). */
  has(codePoint: number): boolean;
  /** The parsed font; a face read on demand is parsed on first use. */
  readonly font: fontkit.Font;
  /** Set for the Chinese (sc), Japanese (jp) and Korean (kr) subsets. */
  cjk?: CjkFamily;
  /** A face read on demand: the code points its stylesheet says it has (its cmap decides). */
  ranges?: ReadonlyArray<readonly [number, number]>;
}

export interface CertificateFonts {
  faces: readonly FontFace[];
  byName: ReadonlyMap<string, FontFace>;
  /**
   * For each code point some face read on demand may have, those faces: registration checks
   * every character of up to 50 travellers against some 370 faces, and a lookup here spares it
   * a scan of every face's ranges (about 60,000 code points, built in milliseconds at start).
   */
  candidates: ReadonlyMap<number, readonly FontFace[]>;
  /** The faces parsed at start (Noto Sans Devanagari's). */
  atStart: readonly FontFace[];
}

export interface TextRun {
  face: string;
  text: string;
}

function fontsourceDirectory(family: string): string {
  return path.dirname(require.resolve(`@fontsource/${family}/package.json`));
}

function parse(file: string): fontkit.Font {
  const font = fontkit.create(sfntFromWoff(fs.readFileSync(file)));
  if (!('layout' in font)) throw new Error(`${file} is a font collection, not a font`);
  return withSharedLayouts(font);
}

export function loadCertificateFonts(): CertificateFonts {
  const faces: FontFace[] = [];
  for (const weight of FONT_WEIGHTS) {
    const directory = path.join(fontsourceDirectory(AT_START.family), 'files');
    for (const subset of AT_START.subsets) {
      const font = parse(path.join(directory, `${AT_START.family}-${subset}-${WEIGHTS[weight]}-normal.woff`));
      faces.push({
        name: `${subset}-${weight}`,
        family: AT_START.family,
        weight,
        font,
        has: (codePoint) => font.hasGlyphForCodePoint(codePoint),
      });
    }
  }
  for (const source of ON_DEMAND) for (const weight of source.weights) faces.push(...facesOnDemand(source, weight));
  const candidates = new Map<number, FontFace[]>();
  for (const face of faces) {
    for (const [from, to] of face.ranges ?? []) {
      for (let codePoint = from; codePoint <= to; codePoint++) {
        const listed = candidates.get(codePoint);
        if (listed) listed.push(face);
        else candidates.set(codePoint, [face]);
      }
    }
  }
  return {
    faces,
    byName: new Map(faces.map((face) => [face.name, face])),
    candidates,
    atStart: faces.filter((face) => face.ranges === undefined),
  };
}

/** The subsets of `family` in `weight` its stylesheet lists, each parsed on first use. */
function facesOnDemand(source: (typeof ON_DEMAND)[number], weight: FontWeight): FontFace[] {
  const { family, subsets, name, cjk } = source;
  const directory = fontsourceDirectory(family);
  const css = fs.readFileSync(path.join(directory, `${WEIGHTS[weight]}.css`), 'utf8');
  const faces: FontFace[] = [];
  const pattern = new RegExp(
    `files/(${family}-([a-z0-9-]+?)-${WEIGHTS[weight]}-normal)\\.woff2[^;]*;\\s*unicode-range:\\s*([^;]+);`,
    'g',
  );
  for (const [, file = '', subset = '', unicodeRange = ''] of css.matchAll(pattern)) {
    if (!subsets.test(subset)) continue;
    const ranges = rangesOf(unicodeRange);
    let font: fontkit.Font | undefined;
    const load = () => (font ??= parse(path.join(directory, 'files', `${file}.woff`)));
    faces.push({
      name: `${name(subset)}-${weight}`,
      family,
      weight,
      cjk,
      ranges,
      has: (codePoint) =>
        ranges.some(([from, to]) => codePoint >= from && codePoint <= to) && load().hasGlyphForCodePoint(codePoint),
      get font() {
        return load();
      },
    });
  }
  if (faces.length === 0) throw new Error(`no unicode-range subsets found for ${family} ${weight}`);
  return faces;
}

/** `U+4e00-4e0f,U+4e11` as inclusive code point ranges. */
function rangesOf(unicodeRange: string): Array<readonly [number, number]> {
  return unicodeRange.split(',').map((part) => {
    const [from = '', to] = part.trim().replace(/^U\+/i, '').split('-');
    const start = parseInt(from, 16);
    return [start, to === undefined ? start : parseInt(to, 16)];
  });
}

/** The face registered as `name` (a run's face). */
export function faceNamed(fonts: CertificateFonts, name: string): FontFace {
  return present(fonts.byName.get(name), `the certificate face ${name}`);
}

/**
 * The characters of `text` that no face has, each once, in order: drawn, each would be an empty
 * box. Registration refuses a name with any (travellers ask through certificates/index.ts).
 */
export function unprintableCharacters(fonts: CertificateFonts, text: string): string[] {
  return [...new Set(text)].filter((character) => {
    const codePoint = character.codePointAt(0) ?? 0;
    const printable =
      fonts.atStart.some((face) => face.has(codePoint)) ||
      (fonts.candidates.get(codePoint) ?? []).some((face) => face.has(codePoint));
    return !printable;
  });
}

/** Distinct words whose shaping a face keeps; past this it starts over, so memory stays bounded. */
const MAX_SHARED_LAYOUTS = 4096;
/** Distinct words and texts pdfkit's layouts of a face keep (shareCurrentFontLayouts), likewise bounded. */
const MAX_PDFKIT_LAYOUTS = 8192;
/**
 * Distinct glyph sets whose embedded subset a face keeps, likewise bounded, and low: what repeats
 * is the Nepali labels' set of the Devanagari faces; a name's set (Latin, CJK…) seldom does, and
 * some 370 faces may each keep theirs.
 */
const MAX_SHARED_SUBSETS = 16;

/** What fontkit's layout takes after the text: features, script, language, direction. */
type LayoutOptions = Parameters<fontkit.Font['layout']> extends [string, ...infer Rest] ? Rest : never;

/** pdfkit's layouts of each parsed face's words and texts, kept across documents (certificate-text.ts selects faces with them). */
const PDFKIT_LAYOUTS = new WeakMap<fontkit.Font, { words: Remember; texts: Remember }>();

/** The layouts pdfkit keeps across documents for `font`, a face of the certificate's; undefined for any other font. */
export function sharedPdfkitLayouts(font: fontkit.Font): { words: Remember; texts: Remember } | undefined {
  return PDFKIT_LAYOUTS.get(font);
}

/** A store of up to `limit` layouts; past it, it starts over. */
function remembering(limit: number): Remember {
  const kept = new Map<string, LaidOutText>();
  return (key, make) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = make();
      if (kept.size >= limit) kept.clear();
      kept.set(key, value);
    }
    return value;
  };
}

/**
 * The face with its shaping results kept across documents. pdfkit shapes text word by word and
 * keeps the results only for one document, and most words of a certificate (labels, the
 * package, the coverage lines) are the same in every one: shaping them again was a third of the
 * time a certificate took. pdfkit scales the positions it gets in place, so every call returns
 * its own copy of them; the glyphs are only read.
 *
 * Past the shaping, what a document did again with the same words is kept too (issue 50's CPU
 * figure): pdfkit's scaled layouts of the face's words and texts (sharedPdfkitLayouts), and the
 * embedded subset's bytes for a set of glyphs: the Nepali labels, headings, assistance box and
 * attestation give the Devanagari face the same glyphs on every certificate whose traveller's
 * name is not in Devanagari, and the subset is a function of its glyph ids and their order alone.
 */
function withSharedLayouts(font: fontkit.Font): fontkit.Font {
  const shaped = new Map<string, { glyphs: fontkit.Glyph[]; positions: fontkit.GlyphPosition[] }>();
  const layout = (text: string, ...options: LayoutOptions) => {
    // Shaping with explicit features (an Arabic run, certificate-text.ts) is not shared. fontkit
    // keeps one glyph object per glyph id with the characters of the first use, and pdfkit's
    // ToUnicode map reads them. A glyph first met as a component of another (the base ر inside
    // the precomposed ز, which the subset takes in with no characters) read back as nothing:
    // such entries are dropped, so that this run makes them again with the characters it draws
    // them for (decision record 0100).
    if (options.some((option) => option !== undefined)) {
      const glyphs = glyphCache(font);
      for (const id of Object.keys(glyphs)) if (glyphs[Number(id)]?.codePoints.length === 0) delete glyphs[Number(id)];
      return font.layout(text, ...options);
    }
    let run = shaped.get(text);
    if (!run) {
      const fresh = font.layout(text);
      run = { glyphs: fresh.glyphs, positions: fresh.positions.map((position) => ({ ...position })) };
      if (shaped.size >= MAX_SHARED_LAYOUTS) shaped.clear();
      shaped.set(text, run);
    }
    const positions = run.positions.map((position) => ({ ...position }));
    return {
      glyphs: run.glyphs,
      positions,
      // pdfkit reads the run's width after scaling the positions, as fontkit's GlyphRun computes it.
      get advanceWidth() {
        return positions.reduce((width, position) => width + position.xAdvance, 0);
      },
    };
  };
  const encoded = new Map<string, Uint8Array>();
  // The subset encodes the glyphs it was given (and their components) from the font's tables
  // alone; pdfkit writes the bytes into the document and reads nothing of the subset after.
  const createSubset = (): fontkit.Subset => {
    const subset = font.createSubset.call(shared);
    const encode = subset.encode.bind(subset);
    subset.encode = () => {
      const key = subsetGlyphIds(subset).join(',');
      let bytes = encoded.get(key);
      if (bytes === undefined) {
        bytes = encode();
        if (encoded.size >= MAX_SHARED_SUBSETS) encoded.clear();
        encoded.set(key, bytes);
      }
      return bytes;
    };
    return subset;
  };
  const shared: fontkit.Font = new Proxy(font, {
    get: (target, property) => {
      const value: unknown =
        property === 'layout' ? layout : property === 'createSubset' ? createSubset : Reflect.get(target, property);
      return value;
    },
  });
  PDFKIT_LAYOUTS.set(shared, {
    words: remembering(MAX_PDFKIT_LAYOUTS),
    texts: remembering(MAX_PDFKIT_LAYOUTS),
  });
  return shared;
}

const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/u;
/** Hebrew, Arabic, Syriac, Thaana, NKo... and their presentation forms: text that may need the bidi algorithm. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * The faces in the order `text` looks for one: those of `weight`, then the other weight's (a bold
 * label falls back to a regular CJK face rather than a box). Han characters are shared by the
 * three CJK families: a text with kana takes the Japanese forms, one with hangul the Korean, any
 * other the one `preferred` names (a kanji-only name of a Japanese traveller), or else the Chinese.
 */
function facesFor(
  fonts: CertificateFonts,
  text: string,
  weight: FontWeight,
  preferred?: CjkFamily,
): readonly FontFace[] {
  const first: CjkFamily = KANA.test(text) ? 'jp' : HANGUL.test(text) ? 'kr' : (preferred ?? 'sc');
  // Sorted once per weight and family, not per text: a certificate draws some sixty texts.
  let orders = FACE_ORDERS.get(fonts);
  if (!orders) FACE_ORDERS.set(fonts, (orders = new Map<string, readonly FontFace[]>()));
  const key = `${weight}:${first}`;
  let order = orders.get(key);
  if (!order) {
    const rank = (face: FontFace) =>
      (face.weight === weight ? 0 : 2) + (face.cjk !== undefined && face.cjk !== first ? 1 : 0);
    order = [...fonts.faces].sort((a, b) => rank(a) - rank(b));
    orders.set(key, order);
  }
  return order;
}

const FACE_ORDERS = new WeakMap<CertificateFonts, Map<string, readonly FontFace[]>>();

const bidi = bidiFactory();

interface Placed {
  character: string;
  face: FontFace;
  /** Its bidi embedding level: odd is right to left. */
  level: number;
}

/**
 * `text` cut into runs each drawn with one face, left to right as they go on the page: a
 * character stays with the face of the run before it when that face has it (so spaces and
 * punctuation do not break a Devanagari word group, which must be shaped whole), otherwise it
 * takes the first face that has it. A space between words of another script goes back to the
 * Latin face: some subsets (Arabic, Vietnamese) give their space glyph no character, and a reader
 * of the PDF would extract a control character for it. A character no face has stays in the run's face and would
 * print as an empty box; registration refuses such names (unprintableCharacters).
 *
 * Right-to-left text (Hebrew, Arabic) is put in visual order with the Unicode bidi algorithm
 * (bidi-js), on the whole text before pdfkit wraps it: the values it draws are short. Each
 * right-to-left word of one face stays a run of its own in logical order, because fontkit shapes it
 * that way (Arabic letters join by their logical neighbours) and itself lays its glyphs out right
 * to left; the words, the spaces between them and any left-to-right part are what the algorithm
 * reorders. Mirrored brackets inside right-to-left text are not swapped.
 */
export function fontRuns(
  fonts: CertificateFonts,
  text: string,
  weight: FontWeight,
  preferredCjk?: CjkFamily,
): TextRun[] {
  const faces = facesFor(fonts, text, weight, preferredCjk);
  const placed: Placed[] = [];
  let current: FontFace | undefined;
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    const kept =
      current?.has(codePoint) && (!/\s/u.test(character) || current.family === 'noto-sans-devanagari')
        ? current
        : undefined;
    const face =
      kept ?? faces.find((candidate) => candidate.has(codePoint)) ?? current ?? present(faces[0], `a ${weight} face`);
    placed.push({ character, face, level: 0 });
    current = face;
  }
  const visual = RIGHT_TO_LEFT.test(text) ? visualOrder(text, placed) : placed;

  const runs: Array<TextRun & { rightToLeft: boolean }> = [];
  let previous: Placed | undefined;
  for (const item of visual) {
    const rightToLeft = item.level % 2 === 1 && !/\s/u.test(item.character);
    const last = runs[runs.length - 1];
    if (last !== undefined && previous?.face === item.face && last.rightToLeft === rightToLeft)
      last.text += item.character;
    else runs.push({ face: item.face.name, text: item.character, rightToLeft });
    previous = item;
  }
  return runs.map(({ face, text: run, rightToLeft }) => ({
    face,
    text: rightToLeft ? [...run].reverse().join('') : run,
  }));
}

/** `placed` (one entry per code point of `text`) with its levels, reordered for display (UAX #9, rule L2). */
function visualOrder(text: string, placed: Placed[]): Placed[] {
  const embedding = bidi.getEmbeddingLevels(text);
  // The levels are per UTF-16 unit; an entry takes the level of its first unit.
  let unit = 0;
  const items = placed.map((item) => {
    const level = embedding.levels[unit] ?? 0;
    unit += item.character.length;
    return { ...item, level };
  });
  // The flips are in UTF-16 units too; each covers whole characters (both halves of a pair share a level).
  for (const [start, end] of bidi.getReorderSegments(text, embedding)) {
    let offset = 0;
    let from = -1;
    let to = -1;
    items.forEach((item, index) => {
      if (offset === start) from = index;
      offset += item.character.length;
      if (offset - 1 === end) to = index;
    });
    if (from >= 0 && to >= from) items.splice(from, to - from + 1, ...items.slice(from, to + 1).reverse());
  }
  return items;
}
