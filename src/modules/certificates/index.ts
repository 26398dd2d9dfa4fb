import type { CertificateFonts } from './certificate-fonts';

/** The certificates module's face: the certificate handlers, their fonts and the policy numbers issued at payment; only what the composition, the CLI and other modules use. */
export { loadCertificateFonts, unprintableCharacters } from './certificate-fonts';
export { certificateHandlers, certificatePolicies } from './handlers';
export { issuePolicyNumbers } from './policy-numbers';
export { isLatin, transliteration } from './rules/transliteration';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** Parsed once at start and shared by every certificate. */
    certificateFonts: CertificateFonts;
  }
}
