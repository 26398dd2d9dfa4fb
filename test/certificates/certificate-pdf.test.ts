import type { CertificateContent } from '../../src/modules/certificates/rules/certificate-content';
import { charactersWithoutGlyph, readPdf } from '../support/certificate-pdf';
import { certificateContent, renderedCertificate } from '../support/certificate-fixtures';
import { at } from '../support/elements';

/**
 * The layout's rules (page breaks, "(continued)", the key limits at page 1's foot) on the
 * English-only rendering, whose page 1 holds six coverage lines: with its Nepali labels a
 * certificate's rows fill page 1 before the coverage list (decision record 0104), and
 * certificate-layout.test.ts and certificate-bilingual.test.ts test that rendering's page 1.
 */
const ENGLISH_ONLY = 'en';

/** A live certificate of a short, ordinary policy: `coverageLines` cover lines, one agency, a catalogue route. */
function content(
  coverageLines: number,
  name = 'Sophie Keller',
  overrides: Partial<CertificateContent> = {},
): CertificateContent {
  const longestValues = certificateContent(name);
  return certificateContent(name, {
    specimen: false,
    premium: { beforeDiscount: 4_500_00, discount: 0, paid: 4_500_00 },
    soldBy: { company: 'Himalayan Trails Pvt. Ltd.', agencies: ['Khumbu Guides'], statedByPartner: [] },
    traveller: { ...longestValues.traveller, nationality: 'Germany', idType: 'PASSPORT' },
    route: { name: 'Everest Base Camp Trek', maxAltitude: 5364 },
    coverage: Array.from({ length: coverageLines }, (_, i) => ({
      code: ['EMERGENCY_EVACUATION', 'MEDICAL_EXPENSES'][i] ?? `COVER_${i + 1}`,
      name: `Cover ${i + 1}: helicopter rescue and evacuation above 4,000 m`,
      amount: (i + 1) * 100_000_00,
    })),
    ...overrides,
  });
}

function render(coverageLines: number, name?: string, overrides?: Partial<CertificateContent>): Promise<Buffer> {
  return renderedCertificate(
    content(coverageLines, name, overrides),
    `live-${coverageLines}-cover-lines`,
    ENGLISH_ONLY,
  );
}

describe('certificate layout', () => {
  it("keeps every coverage line of a package of six (the most the catalogue has) on page 1, and the insurer's details on page 2", async () => {
    const read = await readPdf(await render(6));
    expect(read.pages).toHaveLength(2);
    for (let i = 1; i <= 6; i++) expect(at(read.pages, 0, 'the pages').text).toContain(`Cover ${i}:`);
    expect(at(read.pages, 1, 'the pages').text).toContain('INSURER, INTERMEDIARY AND TERMS');
  });

  it('takes a second page for a long list of coverage lines, never cutting a line from its amount, and keeps the assistance box and the attestation on page 1', async () => {
    const read = await readPdf(await render(30));
    expect(read.pages).toHaveLength(2);
    for (let i = 1; i <= 30; i++) {
      const page = read.pages.find((candidate) => candidate.text.includes(`Cover ${i}:`));
      expect(page?.text.replace(/\s+/g, ' ')).toContain(`NPR ${(i * 100_000).toLocaleString('en-US')}.00`);
    }
    expect(at(read.pages, 0, 'the pages').text).toContain('24-HOUR ASSISTANCE');
    expect(at(read.pages, 0, 'the pages').text).toContain('This certificate confirms');
    expect(at(read.pages, 1, 'the pages').text).not.toContain('24-HOUR ASSISTANCE');
  });

  it('heads every page with the policy number and "page N of M", so that a loose page 2 still says whose it is', async () => {
    const read = await readPdf(await render(30));
    read.pages.forEach((page, index) =>
      expect(page.text.replace(/\s+/g, ' ')).toContain(`Policy POL-2026-000087 · page ${index + 1} of 2`),
    );
  });

  it('when the certificate comes from a sandbox, then every page carries SPECIMEN — NOT INSURANCE; a live one never does', async () => {
    const specimen = await readPdf(await render(30, undefined, { specimen: true }));
    expect(specimen.pages).toHaveLength(2);
    for (const page of specimen.pages) expect(page.text).toContain('SPECIMEN — NOT INSURANCE');
    expect((await readPdf(await render(30))).text).not.toContain('SPECIMEN');
  });

  it('prints what compliance asks for: the insurer\'s licence and address, the intermediary\'s role and licence, "Insured" and "Sold by" (no "Policyholder"), the wording\'s version, the key terms and the time zone of the cover dates', async () => {
    const read = await readPdf(await render(6));
    expect(read.text).toContain('INSURED Name Sophie Keller');
    expect(read.text).toContain('Sold by Himalayan Trails Pvt. Ltd.');
    expect(read.text).not.toContain('Policyholder');
    expect(read.text).toContain(
      'Coverage window 2026-10-01 to 2026-10-16 (16 days, both dates included; Nepal dates, UTC+05:45)',
    );
    expect(read.text).toContain('Policy wording https://cover.example/wording.pdf (version TREK-2026.1)');
    expect(read.text).toContain('Insurer Sagarmatha Insurance Co. Ltd., Kamaladi, Kathmandu');
    expect(read.text).toContain("Insurer's licence NIA licence 07/2061");
    expect(read.text).toContain(
      'Issued by Himalayan Trek Cover, Corporate agent of the insurer; licence NIA agent licence 1234',
    );
    expect(read.text).toContain('Excess NPR 5,000.00 of each claim is paid by the insured');
    expect(read.text).toContain(
      'Key terms and exclusions Valid only on the Everest Base Camp Trek route; Lukla flight delays covered up to 3 days. The policy wording (version TREK-2026.1) governs; this is a summary.',
    );
  });

  it('names the identity document in words, never its raw enum', async () => {
    const read = await readPdf(
      await render(6, undefined, { traveller: { ...content(6).traveller, idType: 'CITIZENSHIP_CERTIFICATE' } }),
    );
    expect(read.text).toContain('Citizenship certificate number ••••••T47');
    expect(read.text).not.toContain('CITIZENSHIP_CERTIFICATE');
  });

  it('draws a kanji-only name of a Japanese traveller in the Japanese forms, and of a Chinese one in the Chinese forms', async () => {
    const japanese = (
      await render(1, '山田太郎', { traveller: { ...content(1).traveller, name: '山田太郎', nationality: 'Japan' } })
    ).toString('latin1');
    expect(japanese).toMatch(/NotoSansJP/);
    expect(japanese).not.toMatch(/NotoSansSC/);
    const chinese = (
      await render(1, '山田太郎', { traveller: { ...content(1).traveller, name: '山田太郎', nationality: 'China' } })
    ).toString('latin1');
    expect(chinese).toMatch(/NotoSansSC/);
  });

  it('prints the premium with its discount, and the partner-priced added items apart from it, never summed into "Premium paid"', async () => {
    const read = await readPdf(
      await render(6, undefined, {
        premium: { beforeDiscount: 21_000_00, discount: 1_400_00, paid: 19_600_00 },
        addedItems: [
          { name: 'Porter for 12 days', quantity: 1, amount: 36_000_00 },
          { name: 'Satellite phone rental', quantity: 2, amount: 15_000_00 },
        ],
      }),
    );
    expect(read.text).toContain('Premium NPR 21,000.00, less discount NPR 1,400.00');
    expect(read.text).toContain('Premium paid NPR 19,600.00');
    expect(read.text).toContain('SOLD WITH THE POLICY, NOT INSURANCE');
    expect(read.text).toContain('INCLUDED EQUIPMENT (NOT INSURANCE) Satellite SOS beacon × 1 NPR 1,680.00');
    expect(read.text).toContain('Porter for 12 days × 1 (priced by the partner) NPR 36,000.00');
    expect(read.text).toContain('Satellite phone rental × 2 (priced by the partner) NPR 15,000.00');
    expect(read.text).not.toContain('70,600.00');
  });

  it('gives the same bytes for the same policy: the issue time, not the download time, dates the document', async () => {
    expect((await render(3)).equals(await render(3))).toBe(true);
  });

  it('gives the same bytes whatever was drawn before it: what the faces keep across documents changes no glyph, position or font of another', async () => {
    const bilingual = (name: string) =>
      renderedCertificate(certificateContent(name), `kept across documents ${name}`, 'en+ne');
    const first = await bilingual('Sophie Keller');
    await bilingual('सीता शर्मा');
    await bilingual('خالد العزيز');
    await bilingual('王小明');
    expect((await bilingual('Sophie Keller')).equals(first)).toBe(true);
  });

  it("keeps a sandbox policy number whole at a line's end: the attestation and the assistance sentence never print SBX- on one line and POL-… on the next", async () => {
    const policyNumber = 'SBX-POL-2026-000087';
    const specimen = certificateContent('Sophie Keller', {
      specimen: true,
      policyNumber,
      verificationUrl: `https://partners.example/verify/${policyNumber}`,
    });
    for (const languages of ['en+ne', 'en'] as const) {
      const read = await readPdf(await renderedCertificate(specimen, `sandbox number ${languages}`, languages));
      const page1 = at(read.pages, 0, 'the pages').items.map((item) => item.text.trim());
      expect([languages, page1.filter((text) => /SBX-$/.test(text))]).toEqual([languages, []]);
      expect([
        languages,
        page1.filter((text) => text.startsWith('SBX-POL-2026-000087 for the coverage window')),
      ]).toEqual([languages, [expect.stringContaining('governs the cover')]]);
    }
  });

  it('draws a character no face has as the empty box (.notdef), which the embedded-glyph check of the script tests finds', async () => {
    // Registration refuses such a name; drawn anyway, this is what it would look like.
    expect(charactersWithoutGlyph(await render(1, 'Abebe አበበ'), 'Abebe አበበ')).toEqual(['አ', 'በ']);
  });
});

describe("page 1's evacuation and medical limits", () => {
  const flat = (text: string) => text.replace(/\s+/g, ' ');

  it('when the coverage list starts on page 1, then its first lines are the evacuation and medical limits, and nothing repeats them at the foot', async () => {
    const read = await readPdf(await render(6));
    const page1 = flat(at(read.pages, 0, 'the pages').text);
    expect(page1).toContain(
      'COVERAGE (LIMITS PER PERSON) Cover 1: helicopter rescue and evacuation above 4,000 m NPR 100,000.00',
    );
    expect(page1).not.toContain('per person 24-HOUR ASSISTANCE');
  });

  it('when long partner text pushes the coverage list to page 2, then page 1 still shows both limits per person above the assistance box, and page 2 continues the list under its heading', async () => {
    const long = certificateContent('W'.repeat(200));
    const read = await readPdf(
      await renderedCertificate(
        {
          ...long,
          soldBy: {
            ...long.soldBy,
            agencies: [...long.soldBy.agencies, ...long.soldBy.agencies],
            statedByPartner: [...long.soldBy.statedByPartner, ...long.soldBy.statedByPartner],
          },
        },
        'key limits at the foot',
        ENGLISH_ONLY,
      ),
    );
    const page1 = flat(at(read.pages, 0, 'the pages').text);
    const page2 = flat(at(read.pages, 1, 'the pages').text);
    expect(page1).not.toContain('COVERAGE (LIMITS PER PERSON)');
    expect(page1).toContain(
      'KEY LIMITS PER PERSON (THE WHOLE COVERAGE LIST IS ON PAGE 2) Cover 1: helicopter rescue and evacuation above 4,000 m NPR 100,000.00 per person Cover 2: helicopter rescue and evacuation above 4,000 m NPR 200,000.00 per person 24-HOUR ASSISTANCE',
    );
    expect(page2).toMatch(/COVERAGE \(LIMITS PER PERSON\)( \(CONTINUED\))? Cover 1:/);
  });

  it('when a section runs over to the next page, then that page repeats its title, "(continued)"', async () => {
    const read = await readPdf(await render(30));
    expect(flat(at(read.pages, 1, 'the pages').text)).toContain('COVERAGE (LIMITS PER PERSON) (CONTINUED) Cover');
  });

  it('names helicopter rescue and evacuation in the title band only for a package with an evacuation line', async () => {
    const withEvacuation = await readPdf(await render(6));
    expect(flat(at(withEvacuation.pages, 0, 'the pages').text)).toContain('including helicopter rescue and evacuation');
    const without = await readPdf(
      await render(6, undefined, {
        coverage: [{ code: 'BAGGAGE_LOSS', name: 'Baggage and personal effects loss', amount: 50_000_00 }],
      }),
    );
    const band = flat(at(without.pages, 0, 'the pages').text);
    expect(band).toContain('Trekking insurance in Nepal');
    expect(band).not.toContain('including helicopter rescue and evacuation');
  });
});
