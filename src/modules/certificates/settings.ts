import type { EnvReader } from '../../kernel/settings/env-reader';

/** What the policy certificate prints besides the order; see docs/decisions/0041-policy-certificate.md. */
export interface CertificateConfig {
  /** The 24-hour assistance line a traveller calls for rescue or medical help, international format. */
  assistancePhone: string;
  /** The assistance desk's e-mail address, printed beside the phone. */
  assistanceEmail: string;
  /** Where the policy wording (the terms and conditions that govern the cover) is published; printed and linked on every certificate. */
  policyWordingUrl: string;
  /** Which edition of the wording the certificates are issued under, e.g. "TREK-2026.1". */
  policyWordingVersion: string;
  /** The insurer's licence from the insurance regulator (Nepal Insurance Authority), printed beside the underwriter. */
  insurerLicence: string;
  /** The insurer's registered address. */
  insurerAddress: string;
  /** What the seller of the certificates is to the insurer, e.g. "Corporate agent of the insurer". */
  intermediaryRole: string;
  /** The intermediary's own licence number with the regulator. */
  intermediaryLicence: string;
}

/**
 * Outside production: placeholders that say what they are, so that no test or sandbox document
 * passes for a licensed one. Production has none: each must be the real one or the server does not start.
 */
const COMPLIANCE_PLACEHOLDERS = {
  POLICY_WORDING_VERSION: 'SANDBOX-WORDING',
  INSURER_LICENCE: 'no licence (sandbox placeholder)',
  INSURER_ADDRESS: 'no address (sandbox placeholder)',
  INTERMEDIARY_ROLE: 'Corporate agent of the insurer (sandbox placeholder)',
  INTERMEDIARY_LICENCE: 'no licence (sandbox placeholder)',
} as const;

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
    // What an insurer's compliance officer and a regulator look for on a certificate: who is licensed to insure and to sell.
    policyWordingVersion: compliance(read, 'POLICY_WORDING_VERSION', isProduction, 'the certificate must name the edition of the policy wording it is issued under'),
    insurerLicence: compliance(read, 'INSURER_LICENCE', isProduction, "the certificate must print the insurer's licence with the regulator"),
    insurerAddress: compliance(read, 'INSURER_ADDRESS', isProduction, "the certificate must print the insurer's registered address"),
    intermediaryRole: compliance(read, 'INTERMEDIARY_ROLE', isProduction, 'the certificate must say what its seller is to the insurer'),
    intermediaryLicence: compliance(read, 'INTERMEDIARY_LICENCE', isProduction, "the certificate must print the intermediary's licence"),
  };
}

function compliance(read: EnvReader, name: keyof typeof COMPLIANCE_PLACEHOLDERS, isProduction: boolean, why: string): string {
  return isProduction ? read.required(name, `in production ${why}`) : read.string(name, COMPLIANCE_PLACEHOLDERS[name]);
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
