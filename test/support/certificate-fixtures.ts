import fs from 'node:fs';
import path from 'node:path';
import { renderCertificate, type CertificateLanguages } from '../../src/modules/certificates/certificate-pdf';
import { loadCertificateFonts } from '../../src/modules/certificates/certificate-fonts';
import type { CertificateContent } from '../../src/modules/certificates/rules/certificate-content';

const fonts = loadCertificateFonts();

/** The most a field the contract accepts can hold: 200 characters, the longest of a script's words repeated. */
export const longest = (word: string, length = 200) => {
  let text = word;
  while (text.length + 1 + word.length <= length) text += ` ${word}`;
  return text;
};

/** A specimen certificate of a traveller named `name`, with the longest nationality, route, company and agencies the contract accepts unless `overrides` say otherwise. */
export function certificateContent(name: string, overrides: Partial<CertificateContent> = {}): CertificateContent {
  return {
    specimen: true,
    policyNumber: 'POL-2026-000087',
    orderRef: 'ORD-2026-000142',
    issuedAt: new Date('2026-09-20T08:24:39Z'),
    issuer: 'Himalayan Trek Cover',
    version: { number: 1, issuedOn: '2026-09-20', history: [{ number: 1, on: '2026-09-20', change: 'issued' }] },
    premium: { beforeDiscount: 21_000_00, discount: 1_400_00, paid: 19_600_00 },
    addedItems: [],
    soldBy: { company: longest('Company'), agencies: [longest('Agency')], statedByPartner: [longest('Agentur')] },
    policyWordingUrl: 'https://cover.example/wording.pdf',
    keyTerms: 'Valid only on the Everest Base Camp Trek route; Lukla flight delays covered up to 3 days.',
    excess: 5_000_00,
    compliance: {
      policyWordingVersion: 'TREK-2026.1',
      insurerLicence: 'NIA licence 07/2061',
      insurerAddress: 'Kamaladi, Kathmandu',
      intermediaryRole: 'Corporate agent of the insurer',
      intermediaryLicence: 'NIA agent licence 1234',
    },
    traveller: {
      name,
      dateOfBirth: '1991-03-14',
      nationality: longest('Nationality', 100),
      idType: 'CITIZENSHIP_CERTIFICATE',
      maskedIdNumber: '••••••T47',
    },
    route: { name: longest('Kanchenjunga'), custom: true },
    coveredAltitude: 6000,
    coverageStartDate: '2026-10-01',
    coverageEndDate: '2026-10-16',
    durationDays: 16,
    packageCode: 'EBC-SPECIAL',
    packageName: 'Everest Base Camp Special',
    underwriter: 'Sagarmatha Insurance Co. Ltd.',
    currency: 'NPR',
    coverage: Array.from({ length: 6 }, (_, i) => ({
      code: ['EMERGENCY_EVACUATION', 'MEDICAL_EXPENSES'][i] ?? `COVER_${i + 1}`,
      name: `Cover ${i + 1}: helicopter rescue and evacuation above 4,000 m`,
      amount: (i + 1) * 100_000_00,
    })),
    equipment: {
      items: [{ name: 'Satellite SOS beacon', quantity: 1, amount: 1_680_00 }],
      discount: 0,
      paid: 1_680_00,
    },
    assistance: { phone: '+977 1 4000 000', email: 'assistance@himalayantrekcover.example' },
    verificationUrl: 'https://partners.example/verify/POL-2026-000087',
    verificationLink: 'https://partners.example/verify/POL-2026-000087?code=7KQ2MX',
    checkCode: '7KQ2MX',
    ...overrides,
  };
}

/** The certificate's bytes. For looking at: CERTIFICATE_SAMPLES=<directory> keeps each one drawn, named after `sample`. */
export async function renderedCertificate(
  certificate: CertificateContent,
  sample: string,
  languages?: CertificateLanguages,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of renderCertificate(certificate, fonts, languages)) chunks.push(chunk as Buffer);
  const pdf = Buffer.concat(chunks);
  if (process.env.CERTIFICATE_SAMPLES)
    fs.writeFileSync(path.join(process.env.CERTIFICATE_SAMPLES, `${sample.replace(/\W+/g, '-')}.pdf`), pdf);
  return pdf;
}

/** The verify page with its unbreakable date spans unwrapped: the words as a reader sees them. */
export const readablePage = (html: string): string => html.replace(/<span class="date">([^<]*)<\/span>/g, '$1');
