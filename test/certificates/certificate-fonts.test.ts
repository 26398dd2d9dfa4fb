import { fontRuns, loadCertificateFonts } from '../../src/modules/certificates/certificate-fonts';
import { at } from '../support/elements';

const fonts = loadCertificateFonts();
const runs = (text: string) => fontRuns(fonts, text, 'regular').map((run) => [run.face, run.text]);

describe('the certificate faces (Noto Sans Devanagari: Latin, Latin Extended, Devanagari)', () => {
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
});
