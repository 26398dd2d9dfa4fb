import type { EnvReader } from '../../kernel/settings/env-reader';

/** What the policy certificate prints besides the order; see docs/decisions.md ("Policy certificate"). */
export interface CertificateConfig {
  /** The 24-hour assistance line a traveller calls for rescue or medical help, international format. */
  assistancePhone: string;
  /** The assistance desk's e-mail address, printed beside the phone. */
  assistanceEmail: string;
  /** Where the policy wording (the terms and conditions that govern the cover) is published; printed and linked on every certificate. */
  policyWordingUrl: string;
}

/** Outside production: a placeholder on a reserved domain, plainly not a real wording. */
export const PLACEHOLDER_POLICY_WORDING_URL = 'https://himalayantrekcover.example/policy-wording';

export function certificateConfig(read: EnvReader, { isProduction }: { isProduction: boolean }): CertificateConfig {
  return {
    // Production has no default: a forgotten setting must not print a made-up emergency number on real certificates.
    assistancePhone: isProduction ? read.required('ASSISTANCE_PHONE', 'in production the certificate\'s 24-hour assistance number must be the real one') : read.string('ASSISTANCE_PHONE', '+977 1 4000 000'),
    assistanceEmail: isProduction ? read.required('ASSISTANCE_EMAIL', 'in production the certificate\'s assistance e-mail must be the real one') : read.string('ASSISTANCE_EMAIL', 'assistance@himalayantrekcover.example'),
    // The wording is what the insured may claim under: production must link the real one.
    policyWordingUrl: isProduction
      ? (read.url('POLICY_WORDING_URL', ['https:']) ?? read.required('POLICY_WORDING_URL', 'in production the certificate must link the real policy wording'))
      : (read.url('POLICY_WORDING_URL', ['https:']) ?? PLACEHOLDER_POLICY_WORDING_URL),
  };
}

/** The contacts' forms, checked with the other rules between settings once all are read. */
export function certificateProblems(certificate: CertificateConfig): string[] {
  const problems: string[] = [];
  // Printed on every certificate for a traveller in trouble to call: it must be dialable as written.
  if (certificate.assistancePhone && !/^\+[1-9]\d{0,3}(?:[ -]?\d{1,6}){2,6}$/.test(certificate.assistancePhone)) {
    problems.push(`ASSISTANCE_PHONE must be an international number such as +977 1 4000 000 (got "${certificate.assistancePhone}")`);
  }
  if (certificate.assistanceEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(certificate.assistanceEmail)) {
    problems.push(`ASSISTANCE_EMAIL must be an e-mail address (got "${certificate.assistanceEmail}")`);
  }
  return problems;
}
