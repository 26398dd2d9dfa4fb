import type { CertificateCoverageLine } from './coverage-summary';
import type { Minor } from '../../../kernel/money';
import type { CertificateAddedItem, CertificateEquipment, CertificatePremium } from './certificate-premium';
import type { CertificateVersion } from './certificate-version';

/** Everything a policy certificate prints, gathered by certificates/certificate.ts and drawn by certificate-pdf.ts. */
export interface CertificateContent {
  /**
   * Issued by a sandbox (PAYMENT_MODE=sandbox): nothing was paid and nobody is insured, so every
   * page says SPECIMEN — NOT INSURANCE across it.
   */
  specimen: boolean;
  policyNumber: string;
  orderRef: string;
  /** The payment that issued the policy: the document's creation date, stable across downloads. */
  issuedAt: Date;
  /** Which version this is, its original issue date and its last amendment (certificate-version.ts). */
  version: CertificateVersion;
  /** When the last amendment was made: the document's modification date. */
  amendedAt?: Date;
  /** The insurance's price, its discount and what was paid for it, in `currency`; equipment and added items are not part of it. */
  premium: CertificatePremium;
  /** The package's included devices with their price for the window: printed apart, as not insurance. */
  equipment: CertificateEquipment;
  /** Partner-priced services and devices sold with the order, listed apart from the premium. */
  addedItems: CertificateAddedItem[];
  /**
   * Who sold the cover: the company that placed the order and the registered agencies listed on
   * it (names the operator registered), and the display-only agencies the partner typed in, which
   * the certificate prints as stated by the partner, never as fact.
   */
  soldBy: { company: string; agencies: string[]; statedByPartner: string[] };
  /** The published policy wording (POLICY_WORDING_URL), printed and linked. */
  policyWordingUrl: string;
  /** Who is licensed to insure and to sell: the settings of certificates/settings.ts. */
  compliance: {
    policyWordingVersion: string;
    insurerLicence: string;
    insurerAddress: string;
    intermediaryRole: string;
    intermediaryLicence: string;
  };
  /** The package's terms in brief from the catalogue (its `termsConditions`): the main conditions and exclusions. */
  keyTerms: string;
  /** What the insured pays of each claim first (the package's catalogue `excess`), in `currency`; 0: none. */
  excess: Minor;
  /** Who sells and services the cover (PAYMENT_MERCHANT_NAME). */
  issuer: string;
  traveller: {
    name: string;
    /** The name as in the passport's machine-readable zone, as printed (passport-name.ts), when the partner gave it. */
    passportName?: string;
    /** Without a passport name, a non-Latin name's Latin transliteration (rules/transliteration.ts), when its script has a table. */
    transliteratedName?: string;
    dateOfBirth: string;
    nationality: string;
    idType: string;
    /** Only the last characters visible (rules/traveller-disclosure.ts). */
    maskedIdNumber: string;
  };
  /** The catalogue route's name and highest point, or the partner's custom route name (`custom`), which no one checked. */
  route: { name: string; maxAltitude?: number; custom?: boolean };
  /** The upper bound of the package's altitude band: the highest altitude the cover includes. */
  coveredAltitude: number;
  coverageStartDate: string;
  coverageEndDate: string;
  durationDays: number;
  packageCode: string;
  packageName: string;
  underwriter: string;
  currency: string;
  coverage: CertificateCoverageLine[];
  assistance: { phone: string; email: string };
  /** Absolute URL of the public verification page, printed for typing in. */
  verificationUrl: string;
  /** The same page with the check code: what the QR code and the PDF's link carry. */
  verificationLink: string;
  /** Printed beside the QR code; with it the verification page shows the traveller's initials. */
  checkCode?: string;
}
