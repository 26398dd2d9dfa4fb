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
