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
  route: { kind: 'REGISTERED' as const, name: 'Everest Base Camp', maxAltitude: 5364 },
  evacuationLimit: 100_000_000,
  version: 1,
  checkCode: 'MATCHED' as const,
  travellerInitials: 'S. K.',
};
const live = { ...site, specimen: false };

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

describe('the verification page for a checkpoint officer and a rescue operator', () => {
  it('names a registered route with its altitude, and helicopter evacuation with its limit per person', () => {
    const html = verificationPage(valid, live);
    expect(html).toContain('<dt>Route</dt><dd>Everest Base Camp (<span class="date">5,364 m</span>)</dd>');
    expect(html).toContain('Included, up to <span class="date">NPR 1,000,000</span> per person');
  });

  it('says "any registered route up to X m" for a policy with no route, and quotes a route the partner typed as stated', () => {
    expect(verificationPage({ ...valid, route: { kind: 'ANY_REGISTERED' } }, live)).toContain(
      'Any registered route up to <span class="date">5,500 m</span>',
    );
    expect(verificationPage({ ...valid, route: { kind: 'AS_STATED', name: 'Tsum <Valley>' } }, live)).toContain(
      '“Tsum &lt;Valley&gt;”: cover applies on this route as stated, up to <span class="date">5,500 m</span> (the route as stated by the partner)',
    );
  });

  it('says so when the package does not cover evacuation', () => {
    expect(verificationPage({ ...valid, evacuationLimit: undefined }, live)).toContain(
      '<dt>Helicopter evacuation</dt><dd>Not included in this package</dd>',
    );
  });

  it('offers a field for the printed check code when none came, and says a wrong one does not match', () => {
    const withoutCode = verificationPage({ ...valid, checkCode: 'ABSENT', travellerInitials: undefined }, live);
    expect(withoutCode).toContain('<form class="code" method="get" action="/verify/POL-2026-000087">');
    expect(withoutCode).toContain('<input id="code" name="code"');
    expect(withoutCode).not.toContain('does not match');
    const wrong = verificationPage({ ...valid, checkCode: 'MISMATCHED', travellerInitials: undefined }, live);
    expect(wrong).toContain('This check code does not match this policy.');
    expect(wrong).toContain('<input id="code" name="code"');
    const right = verificationPage(valid, live);
    expect(right).not.toContain('<form');
    expect(right).not.toContain('does not match');
  });

  it('names the current certificate version and says the earlier ones are superseded', () => {
    expect(verificationPage(valid, live)).toContain('Certificate version 1 is the current one.</p>');
    expect(verificationPage({ ...valid, version: 2, amendedOn: '2026-09-25' }, live)).toContain(
      'Certificate version 2 is the current one. Version 1 is superseded',
    );
    expect(verificationPage({ ...valid, version: 4 }, live)).toContain('Versions 1 to 3 are superseded');
  });

  it("when the check code typed is an earlier version's, then it says that version is superseded and names the current one", () => {
    const html = verificationPage(
      { ...valid, version: 3, amendedOn: '2026-09-25', checkCode: 'SUPERSEDED', supersededVersion: 1 },
      live,
    );
    expect(html).toContain(
      "The check code typed is that of certificate version 1, which is superseded by version 3: the dates on that paper are no longer the policy's.",
    );
    expect(verificationPage({ ...valid, version: 3 }, live)).not.toContain('The check code typed is that of');
  });

  it('keeps every date whole: each one sits in a span that does not wrap', () => {
    const html = verificationPage(
      { ...valid, standing: 'CANCELLED', cancelledOn: '2026-10-02', amendedOn: '2026-09-25' },
      live,
    );
    const bareDates = html.replace(/<span class="date">[^<]*<\/span>/g, '').match(/\d{4}-\d{2}-\d{2}/g);
    expect(bareDates).toBeNull();
    expect(html).toContain('.date{white-space:nowrap}');
  });
});

describe('the verification page in Nepali: every sentence from the glossary (decision record 0109)', () => {
  const sandbox = { ...site, specimen: true };
  /** What a Nepali page shows as text, without its markup, the values it quotes and the English mark it keeps (decision record 0097). */
  const shown = (html: string) =>
    html
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/SPECIMEN — NOT INSURANCE/g, ' ')
      .replace(new RegExp(`${site.issuer}|${valid.underwriter}|${valid.route.name}`, 'g'), ' ')
      .replace(/departure moved from \S+ to \S+/g, ' ');
  /** Three Latin words in a row: an English phrase, not a value (names, numbers and URLs here are one or two words). */
  const englishPhrase = /[A-Za-z’']+[ ,]+[A-Za-z’']+[ ,]+[A-Za-z’']+/;
  const pages = () => [
    verificationPage({ found: false, lookedUp: 'POL-2026-999999' }, sandbox, 'ne'),
    verificationPage({ found: false }, live, 'ne'),
    verificationPage({ ...valid, travellerInitials: undefined, checkCode: 'ABSENT' }, live, 'ne'),
    verificationPage({ ...valid, travellerInitials: undefined, checkCode: 'MISMATCHED' }, live, 'ne'),
    verificationPage({ ...valid, travellerInitials: undefined, noLatinName: true }, live, 'ne'),
    verificationPage({ ...valid, route: { kind: 'AS_STATED', name: 'Tsum Valley' } }, live, 'ne'),
    verificationPage(
      {
        ...valid,
        version: 3,
        amendedOn: '2026-09-28',
        lastChange: 'departure moved from 2026-10-01 to 2026-10-03',
        supersededVersion: 1,
        checkCode: 'SUPERSEDED',
      },
      sandbox,
      'ne',
    ),
    verificationPage({ ...valid, version: 2, amendedOn: '2026-09-28' }, live, 'ne'),
    tooManyLookupsPage(30, sandbox, 'ne'),
  ];

  it('says no English sentence on any page a checkpoint may open in Nepali: not found, the traveller, the typed code, the versions, the stated route, the sandbox, too many lookups', () => {
    for (const html of pages()) expect(shown(html).match(englishPhrase)?.[0]).toBeUndefined();
  });

  it("keeps SPECIMEN — NOT INSURANCE in English above its Nepali words, and the too-many-lookups page in the reader's language", () => {
    const banner = verificationPage(valid, sandbox, 'ne');
    expect(banner).toContain('<strong>SPECIMEN — NOT INSURANCE</strong><br><strong>नमुना — बीमा होइन</strong>');
    expect(tooManyLookupsPage(30, live, 'ne')).toContain('<html lang="ne">');
    expect(tooManyLookupsPage(30, live, 'ne')).toContain('30 सेकेन्डपछि');
  });

  it('says the same English sentences as before on an English page', () => {
    expect(verificationPage({ ...valid, route: { kind: 'AS_STATED', name: 'Tsum Valley' } }, live)).toContain(
      '“Tsum Valley”: cover applies on this route as stated, up to <span class="date">5,500 m</span> (the route as stated by the partner)',
    );
    expect(verificationPage({ ...valid, travellerInitials: undefined, checkCode: 'MISMATCHED' }, live)).toContain(
      'This check code does not match this policy.',
    );
    expect(
      verificationPage({ ...valid, version: 3, amendedOn: '2026-09-28', lastChange: 'extended to 2026-10-20' }, live),
    ).toContain(
      'Amended on <span class="date">2026-09-28</span>: the cover dates were changed after the policy was issued. Version 3: extended to 2026-10-20.</p><p class="version">Certificate version 3 is the current one. Versions 1 to 2 are superseded',
    );
    expect(tooManyLookupsPage(30, live)).toContain('Try again in 30 seconds');
  });
});
