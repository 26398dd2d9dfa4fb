import fs from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { sfntFromWoff } from './woff';
import { present } from '../../kernel/narrow';

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

/**
 * Noto Sans Devanagari from @fontsource/noto-sans-devanagari (SIL Open Font License), which ships
 * the family in unicode-range subsets: Latin, Latin Extended (ā, ś, ñ, ł...) and Devanagari. Each
 * is a face of its own, so text is split into runs by which face has the glyphs (fontRuns).
 * Each face is converted from WOFF to TrueType and parsed once here, then shared by every
 * certificate (pdfkit subsets it per document); parsing it per document cost 75 ms a page.
 */
const SUBSETS = ['latin', 'latin-ext', 'devanagari'] as const;
const WEIGHTS: Record<FontWeight, number> = { regular: 400, bold: 700 };
const FONT_WEIGHTS: readonly FontWeight[] = ['regular', 'bold'];

export interface FontFace {
  /** The name the face is registered under in each document. */
  name: string;
  weight: FontWeight;
  font: fontkit.Font;
}

export interface CertificateFonts {
  faces: readonly FontFace[];
}

export interface TextRun {
  face: string;
  text: string;
}

export function loadCertificateFonts(): CertificateFonts {
  const directory = path.join(path.dirname(require.resolve('@fontsource/noto-sans-devanagari/package.json')), 'files');
  const faces: FontFace[] = [];
  for (const weight of FONT_WEIGHTS) {
    for (const subset of SUBSETS) {
      const file = path.join(directory, `noto-sans-devanagari-${subset}-${WEIGHTS[weight]}-normal.woff`);
      const font = fontkit.create(sfntFromWoff(fs.readFileSync(file)));
      if (!('layout' in font)) throw new Error(`${file} is a font collection, not a font`);
      faces.push({ name: `${subset}-${weight}`, weight, font: withSharedLayouts(font) });
    }
  }
  return { faces };
}

/** Distinct words whose shaping a face keeps; past this it starts over, so memory stays bounded. */
const MAX_SHARED_LAYOUTS = 4096;

/**
 * The face with its shaping results kept across documents. pdfkit shapes text word by word and
 * keeps the results only for one document, and most words of a certificate (labels, the
 * package, the coverage lines) are the same in every one: shaping them again was a third of the
 * time a certificate took. pdfkit scales the positions it gets in place, so every call returns
 * its own copy of them; the glyphs are only read.
 */
/** What fontkit's layout takes after the text: features, script, language, direction. */
type LayoutOptions = Parameters<fontkit.Font['layout']> extends [string, ...infer Rest] ? Rest : never;

function withSharedLayouts(font: fontkit.Font): fontkit.Font {
  const shaped = new Map<string, { glyphs: fontkit.Glyph[]; positions: fontkit.GlyphPosition[] }>();
  const layout = (text: string, ...options: LayoutOptions) => {
    // Shaping with explicit features or script is never asked for here; pass it through untouched.
    if (options.some((option) => option !== undefined)) return font.layout(text, ...options);
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
  return new Proxy(font, {
    get: (target, property) => {
      const value: unknown = property === 'layout' ? layout : Reflect.get(target, property);
      return value;
    },
  });
}

/**
 * `text` cut into runs each drawn with one face: a character stays with the face of the run
 * before it when that face has it (so spaces and punctuation do not break a Devanagari word
 * group, which must be shaped whole), otherwise it takes the first face that has it. A character
 * no face has (Chinese, Cyrillic...) stays in the Latin face and prints as an empty box.
 */
export function fontRuns(fonts: CertificateFonts, text: string, weight: FontWeight): TextRun[] {
  const faces = fonts.faces.filter((face) => face.weight === weight);
  const runs: TextRun[] = [];
  let current: FontFace | undefined;
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    const face = current?.font.hasGlyphForCodePoint(codePoint)
      ? current
      : (faces.find((candidate) => candidate.font.hasGlyphForCodePoint(codePoint)) ?? current ?? present(faces[0], `a ${weight} face`));
    const last = runs[runs.length - 1];
    if (face === current && last !== undefined) last.text += character;
    else runs.push({ face: face.name, text: character });
    current = face;
  }
  return runs;
}
