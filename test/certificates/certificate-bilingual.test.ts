import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { certificateContent, renderedCertificate } from '../support/certificate-fixtures';
import { requireSystemTool } from '../support/system-tools';
import { embeddedFonts } from '../support/certificate-pdf';
import { CERTIFICATE_TERMS, fill, type Term } from '../../src/modules/certificates/glossary';
import type { CertificateContent } from '../../src/modules/certificates/rules/certificate-content';

const run = promisify(execFile);

/** Every page of `pdf` as poppler's pdftotext reads it, white space made single spaces. */
async function pdftotext(pdf: Buffer): Promise<string> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'certificate-bilingual-'));
  try {
    const file = path.join(directory, 'certificate.pdf');
    fs.writeFileSync(file, pdf);
    const { stdout } = await run(requireSystemTool('pdftotext'), ['-enc', 'UTF-8', file, '-'], {
      maxBuffer: 4 * 1024 * 1024,
    });
    return stdout.replace(/\s+/g, ' ');
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

const AMENDED: CertificateContent['version'] = {
  number: 2,
  issuedOn: '2026-09-20',
  amended: { on: '2026-09-25', change: 'departure moved from 2026-10-01 to 2026-10-03' },
  history: [
    { number: 1, on: '2026-09-20', change: 'issued', window: { start: '2026-10-01', end: '2026-10-16' } },
    {
      number: 2,
      on: '2026-09-25',
      change: 'departure moved from 2026-10-01 to 2026-10-03',
      window: { start: '2026-10-03', end: '2026-10-18' },
    },
  ],
};
const traveller = (overrides: Partial<CertificateContent['traveller']>): CertificateContent['traveller'] => ({
  name: 'Sophie Keller',
  dateOfBirth: '1991-03-14',
  nationality: 'Switzerland',
  idType: 'PASSPORT',
  maskedIdNumber: '••••••T47',
  ...overrides,
});

/**
 * Certificates that, between them, print every label there is: a real one (its title), amended,
 * with a registered route, a passport and an added item and no device; the longest specimen (a
 * stated route, the key limits at page 1's foot, a section continued on page 2) of a Devanagari
 * name with its transliteration; and the two other identity documents and one the labels do not know.
 */
const CERTIFICATES: Array<[string, CertificateContent]> = [
  [
    'real, amended, registered route',
    certificateContent('Sophie Keller', {
      specimen: false,
      version: AMENDED,
      traveller: traveller({ passportName: 'KELLER, SOPHIE' }),
      route: { name: 'Everest Base Camp', custom: false, maxAltitude: 5364 },
      equipment: { items: [], discount: 0, paid: 0 },
      addedItems: [{ name: 'Porter day', quantity: 2, amount: 40_00 }],
      soldBy: { company: 'Himalayan Treks', agencies: ['Khumbu Agency'], statedByPartner: ['Lukla Friends'] },
    }),
  ],
  [
    'longest specimen, Devanagari name',
    certificateContent('सीता शर्मा', {
      route: { name: 'Everest Base Camp', custom: false, maxAltitude: 5364 },
      soldBy: { company: 'Himalayan Treks', agencies: [], statedByPartner: [] },
      traveller: {
        ...traveller({ name: 'सीता शर्मा', idType: 'CITIZENSHIP_CERTIFICATE' }),
        transliteratedName: 'Sita Sharma',
      },
    }),
  ],
  ['national ID card', certificateContent('Sophie Keller', { traveller: traveller({ idType: 'NATIONAL_ID' }) })],
  ['another document', certificateContent('Sophie Keller', { traveller: traveller({ idType: 'DRIVING_LICENCE' }) })],
];

/** A term's Nepali as printed: its blanks filled with the fixtures' values. */
const nepaliOf = ({ ne }: Term) =>
  fill(ne, {
    policyNumber: 'POL-2026-000087',
    underwriter: 'Sagarmatha Insurance Co. Ltd.',
    verificationUrl: 'https://partners.example/verify/POL-2026-000087',
    number: 1,
    date: '2026-09-20',
  }).replace(/\s+/g, ' ');

describe('a certificate in English and Nepali (decision record 0104)', () => {
  let bilingual: string[];
  let englishOnly: string[];
  let pdfs: Buffer[];

  beforeAll(async () => {
    pdfs = await Promise.all(
      CERTIFICATES.map(([sample, content]) => renderedCertificate(content, `bilingual ${sample}`)),
    );
    bilingual = await Promise.all(pdfs.map(pdftotext));
    englishOnly = await Promise.all(
      CERTIFICATES.map(async ([sample, content]) =>
        pdftotext(await renderedCertificate(content, `english ${sample}`, 'en')),
      ),
    );
  }, 120_000);

  it.each(Object.entries(CERTIFICATE_TERMS))(
    'prints the label %s in Nepali, read back by pdftotext as written (the English-only rendering does not)',
    (_key, term) => {
      expect(bilingual.join(' ')).toContain(nepaliOf(term));
      expect(englishOnly.join(' ')).not.toContain(nepaliOf(term));
    },
  );

  it('prints each row label in English then in Nepali, the value once, after the English label', () => {
    const [real = ''] = bilingual;
    expect(real).toContain('Name Sophie Keller नाम');
    expect(real).toContain('Premium paid NPR 19,600.00 भुक्तानी गरिएको बीमाशुल्क');
    expect(real.match(/Sophie Keller/g)).toHaveLength(1);
    expect(real).toContain('Certificate of Insurance बीमा प्रमाणपत्र');
  });

  it('embeds the Devanagari face it draws the Nepali with (Noto Sans Devanagari, subset), with a glyph for every letter of the labels', () => {
    const [real = Buffer.alloc(0)] = pdfs;
    const fonts = embeddedFonts(real);
    const drawn = new Set(fonts.flatMap((font) => [...font.characters.values()]).join(''));
    const letters = [
      ...new Set(
        Object.values(CERTIFICATE_TERMS)
          .map((term) => term.ne)
          .join(''),
      ),
    ].filter((c) => /[\u0900-\u097f]/.test(c));
    // A conjunct's glyph stands for its letters together: every letter is in some glyph's text.
    expect(letters.filter((letter) => !drawn.has(letter))).toEqual([]);
    // Subset: a six-letter tag before the face's name.
    expect(real.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansDevanagari-Regular/);
  });
});
