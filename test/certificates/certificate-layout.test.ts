import fs from 'node:fs';
import path from 'node:path';
import { renderCertificate } from '../../src/modules/certificates/certificate-pdf';
import { loadCertificateFonts } from '../../src/modules/certificates/certificate-fonts';
import type { CertificateContent } from '../../src/modules/certificates/rules/certificate-content';
import { readPdf, type PlacedText, type ReadPdf } from '../support/certificate-pdf';
import { first } from '../support/elements';

const fonts = loadCertificateFonts();

/** The most a field the contract accepts can hold: 200 characters, the longest of a script's words repeated. */
const longest = (word: string, length = 200) => {
  let text = word;
  while (text.length + 1 + word.length <= length) text += ` ${word}`;
  return text;
};

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

function content(name: string, overrides: Partial<CertificateContent> = {}): CertificateContent {
  return {
    specimen: true,
    policyNumber: 'POL-2026-000087', orderRef: 'ORD-2026-000142', issuedAt: new Date('2026-09-20T08:24:39Z'), issuer: 'Himalayan Trek Cover',
    version: { number: 1, issuedOn: '2026-09-20' }, premium: { beforeDiscount: 21_000_00, discount: 1_400_00, paid: 19_600_00 }, addedItems: [],
    soldBy: { company: longest('Company'), agencies: [longest('Agency')], statedByPartner: [longest('Agentur')] }, policyWordingUrl: 'https://cover.example/wording.pdf', keyTerms: 'Valid only on the Everest Base Camp Trek route; Lukla flight delays covered up to 3 days.', excess: 5_000_00,
    compliance: { policyWordingVersion: 'TREK-2026.1', insurerLicence: 'NIA licence 07/2061', insurerAddress: 'Kamaladi, Kathmandu', intermediaryRole: 'Corporate agent of the insurer', intermediaryLicence: 'NIA agent licence 1234' },
    traveller: { name, dateOfBirth: '1991-03-14', nationality: longest('Nationality', 100), idType: 'CITIZENSHIP_CERTIFICATE', maskedIdNumber: '••••••T47' },
    route: { name: longest('Kanchenjunga'), custom: true }, coveredAltitude: 6000,
    coverageStartDate: '2026-10-01', coverageEndDate: '2026-10-16', durationDays: 16,
    packageCode: 'EBC-SPECIAL', packageName: 'Everest Base Camp Special', underwriter: 'Sagarmatha Insurance Co. Ltd.', currency: 'NPR',
    coverage: Array.from({ length: 6 }, (_, i) => ({ name: `Cover ${i + 1}: helicopter rescue and evacuation above 4,000 m`, amount: (i + 1) * 100_000_00 })),
    devices: [{ name: 'Satellite SOS beacon', quantity: 1 }],
    assistance: { phone: '+977 1 4000 000', email: 'assistance@himalayantrekcover.example' },
    verificationUrl: 'https://partners.example/verify/POL-2026-000087', verificationLink: 'https://partners.example/verify/POL-2026-000087?code=7KQ2MX', checkCode: '7KQ2MX',
    ...overrides,
  };
}

async function render(certificate: CertificateContent, sample: string): Promise<ReadPdf> {
  const chunks: Buffer[] = [];
  for await (const chunk of renderCertificate(certificate, fonts)) chunks.push(chunk as Buffer);
  const pdf = Buffer.concat(chunks);
  // For looking at: CERTIFICATE_SAMPLES=<directory> keeps each certificate drawn here.
  if (process.env.CERTIFICATE_SAMPLES) fs.writeFileSync(path.join(process.env.CERTIFICATE_SAMPLES, `${sample.replace(/\W+/g, '-')}.pdf`), pdf);
  return readPdf(pdf);
}

const FOOT =
  '24-HOUR ASSISTANCE: RESCUE, EVACUATION AND MEDICAL +977 1 4000 000 · assistance@himalayantrekcover.example ' +
  'Open a case through your agency or call before any helicopter evacuation, quoting the policy number POL-2026-000087. ' +
  'This certificate confirms that the traveller named above is insured by Sagarmatha Insurance Co. Ltd. under policy POL-2026-000087 ' +
  'for the coverage window and the altitude shown. The policy wording linked above governs the cover. ' +
  'Anyone may check that it is valid with the QR code or at https://partners.example/verify/POL-2026-000087.';

const startingWith = (items: PlacedText[], text: string) => items.filter((item) => item.text.startsWith(text));

describe('page 1 holds what a checkpoint needs, for every input the contract accepts', () => {
  it.each(NAMES)('when the name is %s, with the longest nationality, route, company and two agencies, then the assistance box and the attestation are on page 1 below everything else, and every page says which of how many it is', async (script, name) => {
    const read = await render(content(name), script);
    const pageOne = first(read.pages, 'the pages').items.filter((item) => !item.text.startsWith('SPECIMEN'));
    const [assistance] = startingWith(pageOne, '24-HOUR ASSISTANCE');
    const [nameLabel] = startingWith(pageOne, 'Name');
    const [birthLabel] = startingWith(pageOne, 'Date of birth');
    if (!assistance || !nameLabel || !birthLabel) throw new Error(`page 1 lacks the assistance box or the name: ${read.pages[0]?.text}`);
    expect(nameLabel.y).toBeLessThan(birthLabel.y);
    // From the box down, page 1 holds the box and the attestation and nothing else: no row ran into them.
    const foot = pageOne.filter((item) => item.y >= assistance.y - 12).sort((a, b) => a.y - b.y || a.x - b.x);
    expect(foot.map((item) => item.text).join('').replace(/\s+/g, '')).toBe(FOOT.replace(/\s+/g, ''));
    read.pages.forEach((page, index) => expect(page.text.replace(/\s+/g, ' ')).toContain(`Policy POL-2026-000087 · page ${index + 1} of ${read.pages.length}`));
    for (const page of read.pages) expect(page.text).toContain('SPECIMEN — NOT INSURANCE');
  });
});

describe('the header of an amended certificate', () => {
  it('keeps the original issue date and gives the amendment a line of its own, above the verify link and clear of it', async () => {
    const read = await render(content('सीता शर्मा', {
      traveller: { name: 'सीता शर्मा', passportName: 'SHARMA, SITA', dateOfBirth: '1991-03-14', nationality: 'Nepal', idType: 'CITIZENSHIP_CERTIFICATE', maskedIdNumber: '••••••T47' },
      version: { number: 2, issuedOn: '2026-09-20', amended: { on: '2026-09-25', departureFrom: '2026-10-01', departureTo: '2026-10-03' } },
      route: { name: 'Three Passes trek via Kongma La (5,535 m)', custom: true }, coveredAltitude: 4500,
      soldBy: { company: 'Himalayan Trails Pvt. Ltd.', agencies: ['Khumbu Guides'], statedByPartner: ['Valid for all altitudes — approved by Nepal Police'] },
      addedItems: [{ name: 'Porter for 12 days', quantity: 1, amount: 36_000_00 }],
    }), 'Devanagari amended');
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
    const onLine = (y: number | undefined) => arabic.filter((item) => Math.round(item.y) === y).map((item) => item.text).join(' ');
    expect(onLine(lines[0])).toContain('أحمد');
    expect(onLine(lines[0])).not.toContain('عثمان');
    expect(onLine(lines[lines.length - 1])).toContain('عثمان');
  });
});
