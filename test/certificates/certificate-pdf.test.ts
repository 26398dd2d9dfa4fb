import { renderCertificate } from '../../src/modules/certificates/certificate-pdf';
import { loadCertificateFonts } from '../../src/modules/certificates/certificate-fonts';
import type { CertificateContent } from '../../src/modules/certificates/rules/certificate-content';
import { charactersWithoutGlyph, readPdf } from '../support/certificate-pdf';
import { at } from '../support/elements';

const fonts = loadCertificateFonts();

function content(coverageLines: number, name = 'Sophie Keller'): CertificateContent {
  return {
    policyNumber: 'POL-2026-000087', orderRef: 'ORD-2026-000142', issuedAt: new Date('2026-09-20T08:24:39Z'), issuer: 'Himalayan Trek Cover',
    version: { kind: 'Issued', date: '2026-09-20' }, premium: { amount: 4_500_00, currency: 'NPR' },
    policyholder: { company: 'Himalayan Trails Pvt. Ltd.', agencies: ['Khumbu Guides'] }, policyWordingUrl: 'https://cover.example/wording.pdf',
    traveller: { name, dateOfBirth: '1991-03-14', nationality: 'Germany', idType: 'PASSPORT', maskedIdNumber: '••••••T47' },
    route: { name: 'Everest Base Camp Trek', maxAltitude: 5364 }, coveredAltitude: 6000,
    coverageStartDate: '2026-10-01', coverageEndDate: '2026-10-16', durationDays: 16,
    packageCode: 'EBC-SPECIAL', packageName: 'Everest Base Camp Special', underwriter: 'Sagarmatha Insurance Co. Ltd.', currency: 'NPR',
    coverage: Array.from({ length: coverageLines }, (_, i) => ({ name: `Cover ${i + 1}: helicopter rescue and evacuation above 4,000 m`, amount: (i + 1) * 100_000_00 })),
    devices: [{ name: 'Satellite SOS beacon', quantity: 1 }],
    assistance: { phone: '+977 1 4000 000', email: 'assistance@himalayantrekcover.example' },
    verificationUrl: 'https://partners.example/verify/POL-2026-000087',
  };
}

async function render(coverageLines: number, name?: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of renderCertificate(content(coverageLines, name), fonts)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('certificate layout', () => {
  it('fits a package of six coverage lines (the most the catalogue has) on one page', async () => {
    expect((await readPdf(await render(6))).pages).toHaveLength(1);
  });

  it('takes a second page for a long list of coverage lines, never cutting a line from its amount, and ends with the assistance box and the footer', async () => {
    const read = await readPdf(await render(30));
    expect(read.pages).toHaveLength(2);
    for (let i = 1; i <= 30; i++) {
      const page = read.pages.find((candidate) => candidate.text.includes(`Cover ${i}:`));
      expect(page?.text.replace(/\s+/g, ' ')).toContain(`NPR ${(i * 100_000).toLocaleString('en-US')}.00`);
    }
    expect(at(read.pages, 1, 'the pages').text).toContain('24-HOUR ASSISTANCE');
    expect(at(read.pages, 1, 'the pages').text).toContain('This certificate confirms');
  });

  it('gives the same bytes for the same policy: the issue time, not the download time, dates the document', async () => {
    expect((await render(3)).equals(await render(3))).toBe(true);
  });

  it('draws a character no face has as the empty box (.notdef), which the embedded-glyph check of the script tests finds', async () => {
    // Registration refuses such a name; drawn anyway, this is what it would look like.
    expect(charactersWithoutGlyph(await render(1, 'Abebe አበበ'), 'Abebe አበበ')).toEqual(['አ', 'በ']);
  });
});
