import type { Minor } from '../../../kernel/money';

/** A coverage line as the certificate prints it; `code` is the catalogue's (EMERGENCY_EVACUATION, MEDICAL_EXPENSES, …). */
export interface CertificateCoverageLine {
  code: string;
  name: string;
  amount: Minor;
}

/** The catalogue codes of the two limits a rescue operator and a hospital ask for first. */
const EVACUATION = 'EMERGENCY_EVACUATION';
const MEDICAL = 'MEDICAL_EXPENSES';

/**
 * The limits page 1 always shows, whatever else pushes the coverage list to page 2: helicopter
 * evacuation and medical expenses, in that order, where the package has them (decision record 0097).
 */
export function keyLimits(coverage: readonly CertificateCoverageLine[]): CertificateCoverageLine[] {
  return [EVACUATION, MEDICAL].flatMap((code) => coverage.filter((line) => line.code === code));
}

/** The title band's subtitle, from what the package covers: evacuation is named only when a line pays for it. */
export function coverageSubtitle(coverage: readonly CertificateCoverageLine[]): string {
  return coverage.some((line) => line.code === EVACUATION)
    ? 'Trekking insurance in Nepal, including helicopter rescue and evacuation'
    : 'Trekking insurance in Nepal';
}

/** A catalogue's "Full terms: <url>" sentence, which named a second governing document beside the policy wording. */
const FULL_TERMS_LINK = /\s*Full terms:\s*\S+\s*$/i;

/** Ends `text` with a full stop unless it already ends a sentence: joined sentences must read as sentences. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The key terms as page 2 prints them: the package's summary without its own "full terms" link,
 * an endorsement of this policy when it has one, then the one governing document, the policy
 * wording at its version.
 */
export function keyTermsSummary(keyTerms: string, policyWordingVersion: string, endorsement?: string): string {
  const summary = asSentence(keyTerms.replace(FULL_TERMS_LINK, ''));
  const endorsed = endorsement ? `${summary} ${asSentence(endorsement)}` : summary;
  return `${endorsed} The policy wording (version ${policyWordingVersion}) governs; this is a summary.`;
}
