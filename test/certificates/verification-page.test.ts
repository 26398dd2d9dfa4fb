import { verificationPage, tooManyLookupsPage } from '../../src/modules/certificates/verification-page';

const site = { issuer: 'Himalayan Trek Cover', assistancePhone: '+977 1 4000 000' };
const valid = {
  found: true as const,
  policyNumber: 'POL-2026-000087',
  standing: 'VALID' as const,
  coverageStartDate: '2026-10-01',
  coverageEndDate: '2026-10-16',
  maxAltitude: 5500,
  underwriter: 'Sagarmatha Insurance Co. Ltd.',
  today: '2026-10-05',
};

describe("the verification page's specimen banner", () => {
  it('when the service is live, then no page carries the SPECIMEN banner; in sandbox every page does', () => {
    for (const specimen of [false, true]) {
      const pages = [
        verificationPage(valid, { ...site, specimen }),
        verificationPage({ found: false, lookedUp: 'POL-2026-999999' }, { ...site, specimen }),
        tooManyLookupsPage(30, { ...site, specimen }),
      ];
      for (const page of pages) expect(page.includes('SPECIMEN — NOT INSURANCE')).toBe(specimen);
    }
  });

  it('escapes the number it names back on the not-found page', () => {
    expect(verificationPage({ found: false, lookedUp: 'POL-2026-<b>' }, { ...site, specimen: false })).toContain(
      'POL-2026-&lt;b&gt;',
    );
  });
});
