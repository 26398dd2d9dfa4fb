export * from './certificate-fonts';
export * from './handlers';
export * from './policy-numbers';
export type { CertificateConfig } from './settings';
