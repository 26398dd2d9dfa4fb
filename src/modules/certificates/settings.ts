import { z } from 'zod';
import { anyText, readEnv, requiredText, url, type EnvReading } from '../../kernel/settings/env-schema';

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

/** The sandbox's assistance contacts: a made-up desk no traveller in trouble may be sent to. */
const PLACEHOLDER_PHONE = '+977 1 4000 000';
const PLACEHOLDER_EMAIL = 'assistance@himalayantrekcover.example';

/** Outside production: a placeholder on a reserved domain, plainly not a real wording. */
export const PLACEHOLDER_POLICY_WORDING_URL = 'https://himalayantrekcover.example/policy-wording';

/** A compliance setting: the real one in production (`why` it is asked for), its placeholder elsewhere. */
const compliance = (name: keyof typeof COMPLIANCE_PLACEHOLDERS, isProduction: boolean, why: string) =>
  isProduction ? requiredText(`in production ${why}`) : anyText().default(COMPLIANCE_PLACEHOLDERS[name]);

const certificateEnv = ({ isProduction }: { isProduction: boolean }) =>
  z.object({
    // Production has no default: a forgotten setting must not print a made-up emergency number on real certificates.
    ASSISTANCE_PHONE: isProduction
      ? requiredText("in production the certificate's 24-hour assistance number must be the real one")
      : anyText().default(PLACEHOLDER_PHONE),
    ASSISTANCE_EMAIL: isProduction
      ? requiredText("in production the certificate's assistance e-mail must be the real one")
      : anyText().default(PLACEHOLDER_EMAIL),
    // The wording is what the insured may claim under: production must link the real one.
    POLICY_WORDING_URL: isProduction
      ? url(['https:'], { unset: 'is not set: in production the certificate must link the real policy wording' })
      : url(['https:']).default(PLACEHOLDER_POLICY_WORDING_URL),
    // What an insurer's compliance officer and a regulator look for on a certificate: who is licensed to insure and to sell.
    POLICY_WORDING_VERSION: compliance(
      'POLICY_WORDING_VERSION',
      isProduction,
      'the certificate must name the edition of the policy wording it is issued under',
    ),
    INSURER_LICENCE: compliance(
      'INSURER_LICENCE',
      isProduction,
      "the certificate must print the insurer's licence with the regulator",
    ),
    INSURER_ADDRESS: compliance(
      'INSURER_ADDRESS',
      isProduction,
      "the certificate must print the insurer's registered address",
    ),
    INTERMEDIARY_ROLE: compliance(
      'INTERMEDIARY_ROLE',
      isProduction,
      'the certificate must say what its seller is to the insurer',
    ),
    INTERMEDIARY_LICENCE: compliance(
      'INTERMEDIARY_LICENCE',
      isProduction,
      "the certificate must print the intermediary's licence",
    ),
  });

export function certificateConfig(reading: EnvReading, { isProduction }: { isProduction: boolean }): CertificateConfig {
  const env = readEnv(certificateEnv({ isProduction }), reading);
  return {
    assistancePhone: env.ASSISTANCE_PHONE,
    assistanceEmail: env.ASSISTANCE_EMAIL,
    policyWordingUrl: env.POLICY_WORDING_URL,
    policyWordingVersion: env.POLICY_WORDING_VERSION,
    insurerLicence: env.INSURER_LICENCE,
    insurerAddress: env.INSURER_ADDRESS,
    intermediaryRole: env.INTERMEDIARY_ROLE,
    intermediaryLicence: env.INTERMEDIARY_LICENCE,
  };
}

/** Top-level domains reserved for examples and tests (RFC 2606, RFC 6761): no real desk or wording lives there. */
const RESERVED_TLD = /\.(?:example|test|invalid|localhost)\.?$/i;

const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * Production settings that are the sandbox's placeholders (decision record 0093): a certificate
 * would send a traveller to a made-up number or address, or link a wording that does not exist.
 */
function placeholderProblems(certificate: CertificateConfig): string[] {
  const problems: string[] = [];
  const { assistancePhone = '', assistanceEmail = '', policyWordingUrl = '' } = certificate;
  if (assistancePhone !== '' && digits(assistancePhone) === digits(PLACEHOLDER_PHONE))
    problems.push(
      `ASSISTANCE_PHONE is the sandbox placeholder ${PLACEHOLDER_PHONE}; in production set the real 24-hour assistance number`,
    );
  const emailDomain = assistanceEmail.split('@').pop() ?? '';
  if (RESERVED_TLD.test(emailDomain))
    problems.push(
      `ASSISTANCE_EMAIL is on a reserved example domain (${emailDomain}); in production set the real assistance desk's address`,
    );
  const wordingHost = URL.canParse(policyWordingUrl) ? new URL(policyWordingUrl).hostname : '';
  if (RESERVED_TLD.test(wordingHost))
    problems.push(
      `POLICY_WORDING_URL is on a reserved example domain (${wordingHost}); in production link the real policy wording`,
    );
  const compliance: Record<keyof typeof COMPLIANCE_PLACEHOLDERS, string | undefined> = {
    POLICY_WORDING_VERSION: certificate.policyWordingVersion,
    INSURER_LICENCE: certificate.insurerLicence,
    INSURER_ADDRESS: certificate.insurerAddress,
    INTERMEDIARY_ROLE: certificate.intermediaryRole,
    INTERMEDIARY_LICENCE: certificate.intermediaryLicence,
  };
  for (const [name, value] of Object.entries(compliance)) {
    const placeholder = COMPLIANCE_PLACEHOLDERS[name as keyof typeof COMPLIANCE_PLACEHOLDERS];
    if (value === placeholder) problems.push(`${name} is the sandbox placeholder "${placeholder}"`);
  }
  return problems;
}

/** The contacts' forms, checked with the other rules between settings once all are read. */
export function certificateProblems(certificate: CertificateConfig, isProduction: boolean): string[] {
  const problems: string[] = isProduction ? placeholderProblems(certificate) : [];
  // Printed on every certificate for a traveller in trouble to call: it must be dialable as written.
  if (certificate.assistancePhone && !/^\+[1-9]\d{0,3}(?:[ -]?\d{1,6}){2,6}$/.test(certificate.assistancePhone)) {
    problems.push(
      `ASSISTANCE_PHONE must be an international number such as +977 1 4000 000 (got "${certificate.assistancePhone}")`,
    );
  }
  if (certificate.assistanceEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(certificate.assistanceEmail)) {
    problems.push(`ASSISTANCE_EMAIL must be an e-mail address (got "${certificate.assistanceEmail}")`);
  }
  return problems;
}
