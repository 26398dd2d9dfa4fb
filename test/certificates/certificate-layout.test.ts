import { certificateContent as content, longest, renderedCertificate } from '../support/certificate-fixtures';
import type { CertificateContent } from '../../src/modules/certificates/rules/certificate-content';
import { readPdf, type PlacedText, type ReadPdf } from '../support/certificate-pdf';
import { first } from '../support/elements';
import { fill, GLOSSARY } from '../../src/modules/certificates/glossary';

/** A 200-character Arabic name whose first and last words appear nowhere else in it. */
const LONG_ARABIC = `أحمد ${longest('عبدالرحمن', 200 - 'أحمد '.length - ' عثمان'.length)} عثمان`;

const NAMES: Array<[string, string]> = [
  ['Latin', 'Maximilian Alexander Friedrich von Hohenzollern-Sigmaringen'],
  ['Latin, 200 characters of its widest letter', longest('WWWWWWWWWW')],
  ['Devanagari, 200 characters', longest('श्रीमती')],
  ['Cyrillic, 200 characters', longest('Александрович')],
  ['Greek, 200 characters', longest('Παπαδόπουλος')],
  ['Chinese, 200 characters', '王'.repeat(200)],
  ['Japanese, 200 characters', longest('さくら佐藤')],
  ['Korean, 200 characters', '김민준'.repeat(66)],
  ['Hebrew, 200 characters', longest('כהן-לוי')],
  ['Arabic, 200 characters', LONG_ARABIC],
  ['Thai, 200 characters', longest('สมชายใจดี')],
];

async function render(certificate: CertificateContent, sample: string): Promise<ReadPdf> {
  return readPdf(await renderedCertificate(certificate, sample));
}

const POLICY = {
  policyNumber: 'POL-2026-000087',
  underwriter: 'Sagarmatha Insurance Co. Ltd.',
  verificationUrl: 'https://partners.example/verify/POL-2026-000087',
};
/** The assistance box and the attestation, each in English then in Nepali (decision record 0104). */
const FOOT_LINES = [
  '24-HOUR ASSISTANCE: RESCUE, EVACUATION AND MEDICAL',
  GLOSSARY.assistanceHeading.ne,
  '+977 1 4000 000 · assistance@himalayantrekcover.example',
  'Open a case through your agency or call before any helicopter evacuation, quoting the policy number POL-2026-000087.',
  fill(GLOSSARY.assistanceHow.ne, POLICY),
  'This certificate confirms that the traveller named above is insured by Sagarmatha Insurance Co. Ltd. under policy POL-2026-000087 ' +
    'for the coverage window and the altitude shown. The policy wording linked above governs the cover. ' +
    'Anyone may check that it is valid with the QR code or at https://partners.example/verify/POL-2026-000087.',
  fill(GLOSSARY.attestation.ne, POLICY),
];
const FOOT = FOOT_LINES.join(' ');
/** The same foot in English only: what a certificate too long for page 1 in two languages prints (decision record 0104). */
const ENGLISH_FOOT = [FOOT_LINES[0], FOOT_LINES[2], FOOT_LINES[3], FOOT_LINES[5]].join(' ');

/**
 * Text as compared here: without white space, each run of Devanagari as its letters sorted. PDF.js
 * reads Devanagari in glyph order (an i-sign before its consonant, a half letter after the
 * conjunct it joins), and the text layer's logical order is tested with pdftotext (certificate-bilingual.test.ts).
 */
const comparable = (text: string) =>
  text.replace(/\s+/g, '').replace(/[\u0900-\u097f]+/g, (run) => [...run].sort().join(''));

const startingWith = (items: PlacedText[], text: string) => items.filter((item) => item.text.startsWith(text));

describe('page 1 holds what a checkpoint needs, for every input the contract accepts', () => {
  it.each(NAMES)(
    'when the name is %s, with the longest nationality, route, company and two agencies, then the trip and its cover window, the assistance box and the attestation are on page 1, the box and attestation below everything else, and every page says which of how many it is',
    async (script, name) => {
      const read = await render(content(name), script);
      const pageOne = first(read.pages, 'the pages').items.filter((item) => !item.text.startsWith('SPECIMEN'));
      const [assistance] = startingWith(pageOne, '24-HOUR ASSISTANCE');
      const [nameLabel] = startingWith(pageOne, 'Name');
      const [birthLabel] = startingWith(pageOne, 'Date of birth');
      if (!assistance || !nameLabel || !birthLabel)
        throw new Error(`page 1 lacks the assistance box or the name: ${read.pages[0]?.text}`);
      expect(nameLabel.y).toBeLessThan(birthLabel.y);
      // The contract: page 1 always holds the traveller, the trip and the cover (its window).
      const [windowLabel] = startingWith(pageOne, 'Coverage window');
      if (!windowLabel) throw new Error(`page 1 lacks the coverage window: ${read.pages[0]?.text}`);
      expect(windowLabel.y).toBeLessThan(assistance.y);
      // From the box down, page 1 holds the box and the attestation and nothing else: no row ran into them.
      const foot = pageOne.filter((item) => item.y >= assistance.y - 12).sort((a, b) => a.y - b.y || a.x - b.x);
      // Bilingual when the trip still fits page 1 with the Nepali lines; only a 200-character name on
      // top of the longest values falls back to an English page 1 (decision record 0104).
      const expected = script === 'Latin' ? [FOOT] : [FOOT, ENGLISH_FOOT];
      expect(expected.map(comparable)).toContain(comparable(foot.map((item) => item.text).join('')));
      // Above the box, page 1 keeps the evacuation and the medical limits (the two first coverage lines here).
      const above = pageOne.filter((item) => item.y < assistance.y - 12).map((item) => item.text);
      expect(above.join(' ')).toContain('NPR 100,000.00');
      expect(above.join(' ')).toContain('NPR 200,000.00');
      read.pages.forEach((page, index) =>
        expect(page.text.replace(/\s+/g, ' ')).toContain(
          `Policy POL-2026-000087 · page ${index + 1} of ${read.pages.length}`,
        ),
      );
      for (const page of read.pages) expect(page.text).toContain('SPECIMEN — NOT INSURANCE');
    },
  );
});

const AMENDED = {
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

describe('the versions of an amended certificate', () => {
  it('are listed, oldest first, each on its own line with its Nepal date, what changed and its window, the earlier ones superseded', async () => {
    const read = await render(content('Sophie Keller', { version: AMENDED }), 'amendment list');
    // From the page that holds the list's heading on (a long list may continue on the next page).
    const from = read.pages.findIndex((page) => page.text.includes('VERSIONS OF THIS CERTIFICATE'));
    // Each item placed down the pages: a page's height on from one page to the next.
    const items =
      from < 0
        ? []
        : read.pages
            .slice(from)
            .flatMap((page, index) => page.items.map((item) => ({ ...item, y: item.y + index * 10_000 })));
    const [heading] = startingWith(items, 'VERSIONS OF THIS CERTIFICATE');
    const [one] = startingWith(items, 'Version 1, 2026-09-20');
    const [two] = startingWith(items, 'Version 2, 2026-09-25');
    if (!heading || !one || !two) throw new Error(`no list of versions: ${read.text}`);
    expect(read.text).toContain(
      'Version 1, 2026-09-20 Issued; cover 2026-10-01 to 2026-10-16 (superseded by version 2)',
    );
    expect(read.text).toContain(
      'Version 2, 2026-09-25 Departure moved from 2026-10-01 to 2026-10-03; cover 2026-10-03 to 2026-10-18 (this certificate)',
    );
    expect(one.y).toBeGreaterThan(heading.y);
    expect(two.y - one.y).toBeGreaterThanOrEqual(10);
  });

  it('are not listed on a certificate never amended', async () => {
    const read = await render(content('Sophie Keller'), 'no amendment list');
    expect(read.text).not.toContain('VERSIONS OF THIS CERTIFICATE');
  });
});

describe('the header of an amended certificate', () => {
  it('keeps the original issue date and gives the amendment a line of its own, above the verify link and clear of it', async () => {
    const read = await render(
      content('सीता शर्मा', {
        traveller: {
          name: 'सीता शर्मा',
          passportName: 'SHARMA, SITA',
          dateOfBirth: '1991-03-14',
          nationality: 'Nepal',
          idType: 'CITIZENSHIP_CERTIFICATE',
          maskedIdNumber: '••••••T47',
        },
        version: AMENDED,
        route: { name: 'Three Passes trek via Kongma La (5,535 m)', custom: true },
        coveredAltitude: 4500,
        soldBy: {
          company: 'Himalayan Trails Pvt. Ltd.',
          agencies: ['Khumbu Guides'],
          statedByPartner: ['Valid for all altitudes — approved by Nepal Police'],
        },
        addedItems: [{ name: 'Porter for 12 days', quantity: 1, amount: 36_000_00 }],
      }),
      'Devanagari amended',
    );
    const pageOne = first(read.pages, 'the pages').items;
    const [version] = startingWith(pageOne, 'Issued 2026-09-20 · Version 2,');
    const [amendment] = startingWith(pageOne, 'amended 2026-09-25: departure moved from 2026-10-01 to 2026-10-03');
    const [verify] = startingWith(pageOne, 'Verify at');
    if (!version || !amendment || !verify) throw new Error(`the header lacks a line: ${read.pages[0]?.text}`);
    expect(amendment.y - version.y).toBeGreaterThanOrEqual(10);
    expect(verify.y - amendment.y).toBeGreaterThanOrEqual(10);
  });
});

describe('a wrapped right-to-left name', () => {
  it('when a 200-character Arabic name takes several lines, then its first words are on the first line and its last on the last: wrapped first, each line then ordered', async () => {
    const read = await render(content(LONG_ARABIC), 'Arabic wrapped');
    const arabic = first(read.pages, 'the pages').items.filter((item) => /[\u0600-\u06ff]/u.test(item.text));
    const lines = [...new Set(arabic.map((item) => Math.round(item.y)))].sort((a, b) => a - b);
    expect(lines.length).toBeGreaterThan(1);
    const onLine = (y: number | undefined) =>
      arabic
        .filter((item) => Math.round(item.y) === y)
        .map((item) => item.text)
        .join(' ');
    expect(onLine(lines[0])).toContain('أحمد');
    expect(onLine(lines[0])).not.toContain('عثمان');
    expect(onLine(lines[lines.length - 1])).toContain('عثمان');
  });

  it('when it takes several lines, then each line ends at the right edge of the value column, where right-to-left text starts', async () => {
    const read = await render(content(LONG_ARABIC), 'Arabic wrapped, right-aligned');
    const arabic = first(read.pages, 'the pages').items.filter((item) => /[\u0600-\u06ff]/u.test(item.text));
    const lines = [...new Set(arabic.map((item) => Math.round(item.y)))];
    expect(lines.length).toBeGreaterThan(1);
    // The value column ends at the right margin: 595.28 - 50 points.
    for (const y of lines) {
      const right = Math.max(...arabic.filter((item) => Math.round(item.y) === y).map((item) => item.x + item.width));
      expect(Math.abs(right - (595.28 - 50))).toBeLessThan(3);
    }
  });
});

describe('a line mixing Latin and Arabic', () => {
  it('when a name mixes Latin and Arabic words, then every word of the line sits on one baseline, as a Latin name does beside its label (decision record 0103)', async () => {
    const read = await render(content('Khalid خالد Alaziz'), 'Latin and Arabic on one line');
    const items = first(read.pages, 'the pages').items;
    const word = (pattern: RegExp) => {
      const found = items.find((item) => pattern.test(item.text));
      if (!found) throw new Error(`no ${String(pattern)} in ${items.map((item) => item.text).join(' | ')}`);
      return found;
    };
    const [khalid, arabic, alaziz] = [word(/^Khalid$/), word(/[\u0600-\u06ff]/u), word(/^Alaziz$/)];
    expect(Math.abs(arabic.y - khalid.y)).toBeLessThan(0.5);
    expect(Math.abs(alaziz.y - khalid.y)).toBeLessThan(0.5);
    // The value sits against its label as an all-Latin row's does (the row below: label and value in Latin).
    const [name, latinLabel, latinValue] = [word(/^Name$/), word(/^Name in Latin letters$/), word(/^not given/)];
    expect(Math.abs(khalid.y - name.y - (latinValue.y - latinLabel.y))).toBeLessThan(0.5);
  });
});
