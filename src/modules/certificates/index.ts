import type { CertificateFonts } from './certificate-fonts';
export * from './certificate-fonts';
export * from './handlers';
export * from './policy-numbers';
export type { CertificateConfig } from './settings';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** Parsed once at start and shared by every certificate. */
    certificateFonts: CertificateFonts;
  }
}
