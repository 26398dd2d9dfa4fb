import {
  asSentence,
  coverageSubtitle,
  keyLimits,
  keyTermsSummary,
} from '../../src/modules/certificates/rules/coverage-summary';

const EVACUATION = { code: 'EMERGENCY_EVACUATION', name: 'Helicopter emergency evacuation', amount: 1_000_000_00 };
const MEDICAL = { code: 'MEDICAL_EXPENSES', name: 'Emergency medical and hospital expenses', amount: 1_500_000_00 };
const BAGGAGE = { code: 'BAGGAGE_LOSS', name: 'Baggage and personal effects loss', amount: 50_000_00 };

describe("the certificate's coverage summary", () => {
  it('keeps the evacuation and medical limits for page 1, evacuation first, whatever order the package lists them in', () => {
    expect(keyLimits([BAGGAGE, MEDICAL, EVACUATION])).toEqual([EVACUATION, MEDICAL]);
    expect(keyLimits([BAGGAGE])).toEqual([]);
  });

  it('names helicopter rescue and evacuation in the subtitle only when a coverage line pays for it', () => {
    expect(coverageSubtitle([MEDICAL, EVACUATION])).toBe(
      'Trekking insurance in Nepal, including helicopter rescue and evacuation',
    );
    expect(coverageSubtitle([MEDICAL, BAGGAGE])).toBe('Trekking insurance in Nepal');
  });

  it("folds the catalogue's own 'Full terms' link into the one governing document, the policy wording at its version", () => {
    expect(
      keyTermsSummary(
        'Valid on registered teahouse routes with a maximum altitude of 3,000 m; pre-existing conditions excluded. Full terms: https://sandbox.example.com/terms/TRK-STD-3000',
        '2026.1',
      ),
    ).toBe(
      'Valid on registered teahouse routes with a maximum altitude of 3,000 m; pre-existing conditions excluded. The policy wording (version 2026.1) governs; this is a summary.',
    );
  });

  it('ends a joined sentence with a full stop, once', () => {
    expect(asSentence('Lukla flight delays covered up to 3 days')).toBe('Lukla flight delays covered up to 3 days.');
    expect(asSentence('Covered up to 3 days. ')).toBe('Covered up to 3 days.');
    expect(keyTermsSummary('Valid only on registered routes', '1')).toBe(
      'Valid only on registered routes. The policy wording (version 1) governs; this is a summary.',
    );
  });
});
