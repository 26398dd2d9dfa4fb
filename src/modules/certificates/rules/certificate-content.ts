import type { Minor } from '../../../kernel/money';

/** Everything a policy certificate prints, gathered by services/certificate.ts and drawn by certificate-pdf.ts. */
export interface CertificateContent {
  policyNumber: string;
  orderRef: string;
  /** Kathmandu date of the payment that issued the policy; stable across downloads. */
  issuedOn: string;
  issuedAt: Date;
  /** Who sells and services the cover (PAYMENT_MERCHANT_NAME). */
  issuer: string;
  traveller: {
    name: string;
    dateOfBirth: string;
    nationality: string;
    idType: string;
    /** Only the last characters visible (domain/traveller-disclosure.ts). */
    maskedIdNumber: string;
  };
  /** The route's name (or the partner's custom route), and its highest point when it is a catalogue route. */
  route: { name: string; maxAltitude?: number };
  /** The upper bound of the package's altitude band: the highest altitude the cover includes. */
  coveredAltitude: number;
  coverageStartDate: string;
  coverageEndDate: string;
  durationDays: number;
  packageCode: string;
  packageName: string;
  underwriter: string;
  currency: string;
  coverage: Array<{ name: string; amount: Minor }>;
  devices: Array<{ name: string; quantity: number }>;
  assistance: { phone: string; email: string };
  /** Absolute URL of the public verification page, encoded in the QR code. */
  verificationUrl: string;
}
