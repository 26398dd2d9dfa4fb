import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { certificateContent, renderedCertificate } from '../support/certificate-fixtures';
import { requireSystemTool } from '../support/system-tools';
import { contentStreams } from '../support/certificate-pdf';
import { SPECIMEN_ARTIFACT } from '../../src/modules/certificates/certificate-pdf';

const run = promisify(execFile);

/** Page 1 of `pdf` as poppler's pdftotext reads it, in its reading order (default), laid out as printed (-layout), or word by word with each word's box (-bbox). */
async function pdftotext(pdf: Buffer, mode: 'default' | 'layout' | 'bbox'): Promise<string> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'certificate-text-'));
  try {
    const file = path.join(directory, 'certificate.pdf');
    fs.writeFileSync(file, pdf);
    const { stdout } = await run(
      requireSystemTool('pdftotext'),
      [...(mode === 'default' ? [] : [`-${mode}`]), '-enc', 'UTF-8', '-f', '1', '-l', '1', file, '-'],
      { maxBuffer: 4 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

const NAMES: Array<[string, string]> = [
  ['Latin', 'Sophie Keller'],
  ['Devanagari', 'सीता शर्मा'],
  ['Chinese', '王小明'],
  ['Japanese', '佐藤 さくら'],
  ['Korean', '김민준'],
  ['Thai', 'สมชาย ใจดี'],
  ['Hebrew', 'דוד כהן'],
  ['Arabic', 'محمد علي'],
  // Letters that share a dotless base in the Arabic face (ر ز, س ش, ب ت ث ي): each read back as itself, the words in order.
  ['Arabic, three words', 'خالد عبد العزيز'],
  ['Arabic, letters sharing a base', 'شريف ثابت بن زياد الرزاز'],
  ['Hebrew, a full name with final letters', 'שרה בת אברהם כץ'],
];

/** A certificate of a traveller named `name`, its page 1 as pdftotext reads it in `mode`, line by line, spaces collapsed. */
async function pageOneLines(script: string, name: string): Promise<Record<'default' | 'layout', string[]>> {
  const pdf = await renderedCertificate(
    certificateContent(name, {
      traveller: {
        name,
        dateOfBirth: '1991-03-14',
        nationality: 'Nepal',
        idType: 'PASSPORT',
        maskedIdNumber: '••••••T47',
      },
    }),
    `text layer ${script}`,
  );
  // Poppler wraps a right-to-left run in embedding marks (U+202B ... U+202C), which show nothing.
  const lines = async (mode: 'default' | 'layout') =>
    (await pdftotext(pdf, mode)).split('\n').map((line) =>
      line
        .replace(/[\u202a-\u202e\u2066-\u2069]/gu, '')
        .trim()
        .replace(/\s+/g, ' '),
    );
  return { default: await lines('default'), layout: await lines('layout') };
}

/** The line that starts with the "Name" label (not "Name as in passport"). */
const nameLine = (lines: string[]) => lines.find((line) => /^Name\b(?! as in)/.test(line));

describe("the certificate's text reads in order", () => {
  // Poppler is a Debian package, not an npm one: without it every case below fails with this sentence.
  beforeAll(() => requireSystemTool('pdftotext'));

  it.each(NAMES)(
    'when the traveller\'s name is %s, then pdftotext, in reading order and laid out, finds it as written right after "Name", on the label\'s line',
    async (script, name) => {
      const read = await pageOneLines(script, name);
      expect(nameLine(read.default)).toBe(`Name ${name}`);
      expect(nameLine(read.layout)).toBe(`Name ${name}`);
    },
  );
});

describe("a specimen's diagonal mark", () => {
  beforeAll(() => requireSystemTool('pdftotext'));

  it('is drawn as a watermark artifact on every page, so that text extraction reads SPECIMEN — NOT INSURANCE once per page, from its header', async () => {
    const pdf = await renderedCertificate(certificateContent('Sophie Keller', { specimen: true }), 'specimen artifact');
    const pages = contentStreams(pdf);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const stream of pages) {
      const start = stream.indexOf(SPECIMEN_ARTIFACT);
      expect(start).toBeGreaterThanOrEqual(0);
      // The mark's text is shown inside the artifact, before it closes.
      const inside = stream.slice(start, stream.indexOf('EMC', start));
      expect(inside).toMatch(/\bT[Jj]\b/);
    }
    const text = (await pdftotext(pdf, 'default')).replace(/\s+/g, ' ');
    expect(text.split('SPECIMEN — NOT INSURANCE')).toHaveLength(2);
    // Poppler skips no artifact by itself: it read the rotated mark as letters ("NS", "UR") in boxes as tall as the diagonal runs.
    const tall = (await pdftotext(pdf, 'bbox'))
      .split('\n')
      .map((line) => /yMin="([\d.]+)"[^>]*yMax="([\d.]+)">([^<]*)</.exec(line))
      .filter((word) => word && Number(word[2]) - Number(word[1]) > 40)
      .map((word) => word?.[3]);
    expect(tall).toEqual([]);
  });
});
