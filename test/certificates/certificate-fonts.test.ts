import fs from 'node:fs';
import * as fontkit from 'fontkit';
import {
  faceNamed,
  fontRuns,
  loadCertificateFonts,
  sharedPdfkitLayouts,
  unprintableCharacters,
} from '../../src/modules/certificates/certificate-fonts';
import { renderCertificate } from '../../src/modules/certificates/certificate-pdf';
import { sfntFromWoff } from '../../src/modules/certificates/woff';
import { certificateContent } from '../support/certificate-fixtures';
import { at } from '../support/elements';

const fonts = loadCertificateFonts();
const runs = (text: string) => fontRuns(fonts, text, 'regular').map((run) => [run.face, run.text]);

describe('the certificate faces (Noto Sans: Latin, Devanagari, Vietnamese, Cyrillic, Greek, Hebrew, Arabic, Thai, Chinese, Japanese, Korean)', () => {
  it('loads each face from its WOFF file as a TrueType font with the glyphs of its script', () => {
    const face = (name: string) => fonts.faces.find((candidate) => candidate.name === name)?.font;
    expect(face('devanagari-regular')?.hasGlyphForCodePoint('श'.codePointAt(0) ?? 0)).toBe(true);
    expect(face('latin-bold')?.hasGlyphForCodePoint('K'.codePointAt(0) ?? 0)).toBe(true);
    expect(face('latin-ext-regular')?.hasGlyphForCodePoint('ł'.codePointAt(0) ?? 0)).toBe(true);
    expect(face('devanagari-regular')?.layout('शर्मा').glyphs.length).toBeLessThan([...'शर्मा'].length);
  });

  it('draws a Devanagari name in one run, its space included, so it is shaped as a whole', () => {
    expect(runs('सीता शर्मा')).toEqual([['devanagari-regular', 'सीता शर्मा']]);
  });

  it('switches face where the script changes, and keeps punctuation with the run before it', () => {
    expect(runs('Sita (सीता), Łódź')).toEqual([
      ['latin-regular', 'Sita ('],
      ['devanagari-regular', 'सीता'],
      ['latin-regular', '), '],
      ['latin-ext-regular', 'Ł'],
      ['latin-regular', 'ód'],
      ['latin-ext-regular', 'ź'],
    ]);
  });

  it('gives the same shaping to every document: a shared result is copied, never scaled twice', () => {
    const face = at(fonts.faces, 0, 'the faces').font;
    const first = face.layout('Coverage');
    at(first.positions, 0).xAdvance *= 2;
    expect(at(face.layout('Coverage').positions, 0).xAdvance).toBe(at(first.positions, 0).xAdvance / 2);
  });

  it("keeps across documents pdfkit's layouts of the words every certificate draws: the Nepali labels are laid out once per process", async () => {
    for await (const chunk of renderCertificate(certificateContent('Sophie Keller'), fonts, 'en+ne'))
      expect(chunk).toBeDefined();
    const kept = sharedPdfkitLayouts(faceNamed(fonts, 'devanagari-regular').font);
    const notKept = () => {
      throw new Error('laid out again');
    };
    expect(kept?.words('बीमा ', notKept).glyphs.length).toBeGreaterThan(0);
    expect(kept?.texts('नाम', notKept).advanceWidth).toBeGreaterThan(0);
  });

  it("encodes a face's subset once for the same glyphs, to the bytes fontkit gives the font parsed on its own", () => {
    const face = faceNamed(fonts, 'devanagari-regular').font;
    const glyphs = face.layout('२४ घण्टे सहायता').glyphs;
    const subsetOf = (font: fontkit.Font) => {
      const subset = font.createSubset();
      for (const glyph of glyphs) subset.includeGlyph(glyph);
      return subset.encode();
    };
    const first = subsetOf(face);
    expect(subsetOf(face)).toBe(first);
    const file =
      require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff');
    const alone = fontkit.create(sfntFromWoff(fs.readFileSync(file)));
    if (!('layout' in alone)) throw new Error('a font collection, not a font');
    expect(Buffer.from(subsetOf(alone)).equals(Buffer.from(first))).toBe(true);
  });

  it('lays a right-to-left name out in visual order: the last word leftmost, each word in logical order for fontkit to shape and lay out right to left', () => {
    expect(runs('محمد علي')).toEqual([
      ['arabic-regular', 'علي'],
      ['latin-regular', ' '],
      ['arabic-regular', 'محمد'],
    ]);
    expect(runs('דוד כהן')).toEqual([
      ['hebrew-regular', 'כהן'],
      ['latin-regular', ' '],
      ['hebrew-regular', 'דוד'],
    ]);
    // Embedded in an English line, the Hebrew run is reversed in place.
    expect(runs('Name: דוד כהן, Israel')).toEqual([
      ['latin-regular', 'Name: '],
      ['hebrew-regular', 'כהן'],
      ['latin-regular', ' '],
      ['hebrew-regular', 'דוד'],
      ['latin-regular', ', Israel'],
    ]);
  });

  it('shapes an Arabic word with joining forms (fewer or other glyphs than letters, no .notdef)', () => {
    const face = fonts.faces.find((candidate) => candidate.name === 'arabic-regular')?.font;
    const glyphs = face?.layout('محمد').glyphs ?? [];
    const isolated = [...'محمد'].map((letter) => face?.layout(letter).glyphs[0]?.id);
    expect(glyphs.every((glyph) => glyph.id !== 0)).toBe(true);
    expect(glyphs.map((glyph) => glyph.id)).not.toEqual([...isolated].reverse());
  });

  it('draws Han characters in Chinese forms, and in Japanese ones in a name with kana, Korean in a name with hangul', () => {
    expect(runs('王小明').every(([face]) => face?.startsWith('sc-'))).toBe(true);
    expect(
      runs('佐藤 さくら')
        .filter(([face]) => face !== 'latin-regular')
        .every(([face]) => face?.startsWith('jp-')),
    ).toBe(true);
    expect(runs('김민준').every(([face]) => face?.startsWith('kr-'))).toBe(true);
  });

  it('names the characters no face has, each once, and none of a name in a supported script', () => {
    for (const name of [
      'Łucja Nguyễn',
      'सीता शर्मा',
      'Иван',
      'Γιώργος',
      '王小明',
      '佐藤 さくら',
      '김민준',
      'דוד',
      'محمد',
      'สมชาย',
    ])
      expect(unprintableCharacters(fonts, name)).toEqual([]);
    expect(unprintableCharacters(fonts, 'Abebe አበበ')).toEqual(['አ', 'በ']);
    expect(unprintableCharacters(fonts, '𒀀 Ninlil')).toEqual(['𒀀']);
  });
});
