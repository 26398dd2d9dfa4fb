import fs from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import {
  currentFont,
  featuresTurnedOff,
  FONTKIT_VERSION,
  glyphCache,
  listCurrentFontOnPage,
  PDFKIT_VERSION,
  shareCurrentFontLayouts,
  subsetGlyphIds,
  type LaidOutText,
  type Remember,
} from '../../src/kernel/pdfkit-adapter';
import { sfntFromWoff } from '../../src/modules/certificates/woff';

/**
 * src/kernel/pdfkit-adapter.ts reaches into pdfkit's and fontkit's internals (decision record
 * 0105). These fail, naming what to check, when the installed versions are not the ones it states,
 * and drive each accessor on a real document and a real font, so a version whose internals moved
 * fails here rather than in a certificate.
 */
const ROOT = path.resolve(__dirname, '../..');
const installed = (name: string): unknown =>
  (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

it('states the pdfkit and fontkit versions installed', () => {
  const whatToCheck =
    'check src/kernel/pdfkit-adapter.ts against the installed pdfkit (lib/mixins/fonts.js, text.js) and fontkit (TTFFont _glyphs), then write their versions there';
  expect({ pdfkit: installed('pdfkit'), fontkit: installed('fontkit'), whatToCheck }).toEqual({
    pdfkit: PDFKIT_VERSION,
    fontkit: FONTKIT_VERSION,
    whatToCheck,
  });
});

it("reads the current font and size pdfkit's text() uses, and lists the font in the page's resources", () => {
  const doc = new PDFDocument({ autoFirstPage: true });
  doc.font('Helvetica-Bold').fontSize(13);
  const { font, size } = currentFont(doc);
  expect(size).toBe(13);
  expect(font.id).toMatch(/^F\d+$/);
  expect(font.ascender).toBeGreaterThan(500);
  expect(Reflect.get(Reflect.get(doc.page, 'fonts') as object, font.id)).toBeUndefined();
  expect(listCurrentFontOnPage(doc)).toBe(font);
  expect(Reflect.get(Reflect.get(doc.page, 'fonts') as object, font.id)).toBeDefined();
  doc.end();
});

it("gives fontkit's glyph cache, filled by a layout, and hands turned-off features to fontkit as an object", () => {
  const file = require.resolve('@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff');
  const font = fontkit.create(sfntFromWoff(fs.readFileSync(file)));
  if (!('layout' in font)) throw new Error('a font collection, not a font');
  const features = featuresTurnedOff({ ccmp: false });
  expect(features).toEqual({ ccmp: false });
  const run = font.layout('شريف', features);
  const cache = glyphCache(font);
  expect(run.glyphs.length).toBeGreaterThan(0);
  for (const glyph of run.glyphs) expect(cache[glyph.id]).toBe(glyph);
});

const devanagari = () => {
  const file =
    require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff');
  const font = fontkit.create(sfntFromWoff(fs.readFileSync(file)));
  if (!('layout' in font)) throw new Error('a font collection, not a font');
  return font;
};

it("keeps pdfkit's layouts of a font's words and texts where the caller says, shared by every document, and lays out afresh with features", () => {
  const font = devanagari();
  const kept = { words: new Map<string, LaidOutText>(), texts: new Map<string, LaidOutText>() };
  const remember =
    (store: Map<string, LaidOutText>): Remember =>
    (key, make) => {
      const value = store.get(key) ?? make();
      store.set(key, value);
      return value;
    };
  const widths = (share: boolean) => {
    const doc = new PDFDocument({ font: '' });
    doc.registerFont('devanagari', font);
    doc.font('devanagari').fontSize(10);
    if (share)
      shareCurrentFontLayouts(doc, (parsed) =>
        parsed === font ? { words: remember(kept.words), texts: remember(kept.texts) } : undefined,
      );
    const width = doc.widthOfString('बीमा प्रमाणपत्र');
    doc.text('बीमा प्रमाणपत्र', 50, 50, { width: 200 });
    doc.end();
    return width;
  };
  const alone = widths(false);
  expect(widths(true)).toBe(alone);
  expect([...kept.words.keys()].sort()).toEqual(['प्रमाणपत्र', 'बीमा ']);
  expect([...kept.texts.keys()]).toContain('बीमा प्रमाणपत्र');
  const firstWord = kept.words.get('बीमा ');
  expect(widths(true)).toBe(alone);
  expect(kept.words.get('बीमा ')).toBe(firstWord);
  // A text with OpenType features given is not kept.
  const doc = new PDFDocument({ font: '' });
  doc.registerFont('devanagari', font);
  doc.font('devanagari');
  shareCurrentFontLayouts(doc, () => ({ words: remember(kept.words), texts: remember(kept.texts) }));
  doc.widthOfString('उद्धार', { features: featuresTurnedOff({ ccmp: false }) });
  expect(kept.texts.has('उद्धार')).toBe(false);
  doc.end();
});

it('gives the glyph ids a subset holds, in the order they were included', () => {
  const font = devanagari();
  const subset = font.createSubset();
  const [first, second] = font.layout('शर्मा').glyphs;
  if (!first || !second) throw new Error('no glyphs');
  subset.includeGlyph(second);
  subset.includeGlyph(first);
  expect(subsetGlyphIds(subset)).toEqual([0, second.id, first.id]);
});
