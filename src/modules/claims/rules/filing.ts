import { addDays } from '../../../kernel/business-date';
import type { Schemas } from '../../../kernel/http/wire';

type ClaimType = Schemas['ClaimType'];
type ClaimFlag = Schemas['ClaimFlag'];
type DocumentType = Schemas['DocumentType'];
type ErrorCode = Schemas['ErrorCode'];

/**
 * What filing checks (decision record 0095): only what can never be paid refuses a claim; what
 * the desk must weigh becomes a flag. Pure: the use case reads the facts, these judge them.
 */

/** The coverage line codes each claim type is paid from, in order of preference (the catalogue's codes). */
const LINES_OF: Readonly<Record<ClaimType, readonly string[]>> = {
  MEDICAL_EXPENSES: ['MEDICAL_EXPENSES'],
  EMERGENCY_EVACUATION: ['EMERGENCY_EVACUATION'],
  TRIP_CANCELLATION: ['TRIP_CANCELLATION'],
  TRIP_INTERRUPTION: ['TRIP_INTERRUPTION', 'TRIP_CANCELLATION'],
  BAGGAGE_AND_EQUIPMENT: ['BAGGAGE_AND_EQUIPMENT', 'BAGGAGE_LOSS'],
  PERSONAL_ACCIDENT: ['PERSONAL_ACCIDENT'],
};

/** The package's line a claim type is paid from, or null when the package does not cover it. */
export function coverageLineOf<Line extends { code: string }>(
  claimType: ClaimType,
  lines: readonly Line[],
): Line | null {
  for (const code of LINES_OF[claimType]) {
    const line = lines.find((candidate) => candidate.code === code);
    if (line) return line;
  }
  return null;
}

export interface FilingFacts {
  orderRef: string;
  orderStatus: string;
  /** Null when the order was never paid. */
  paidAt: Date | null;
  /** The Nepal day the order was cancelled, when it was. */
  cancelledOn: string | null;
  coverageStartDate: string;
  coverageEndDate: string;
  claimType: ClaimType;
  coverageLines: readonly { code: string }[];
  incidentDate: string;
  /** Today in Nepal (the caller's sandbox test clock, else the real date). */
  today: string;
  noticeDays: number;
}

export interface FilingRefusal {
  code: Extract<
    ErrorCode,
    | 'ORDER_NOT_PAID'
    | 'ORDER_ALREADY_CANCELLED'
    | 'INCIDENT_OUTSIDE_COVER'
    | 'CLAIM_TYPE_NOT_COVERED'
    | 'CLAIM_NOTICE_EXPIRED'
  >;
  message: string;
}

/** The first reason the claim can never be paid, or null. */
export function filingRefusal(facts: FilingFacts): FilingRefusal | null {
  if (facts.paidAt === null)
    return {
      code: 'ORDER_NOT_PAID',
      message: `Order ${facts.orderRef} is ${facts.orderStatus}; a claim can be filed only on a paid order`,
    };
  if (facts.cancelledOn !== null && facts.cancelledOn < facts.incidentDate)
    return {
      code: 'ORDER_ALREADY_CANCELLED',
      message: `Order ${facts.orderRef} was cancelled on ${facts.cancelledOn}, before the incident on ${facts.incidentDate}`,
    };
  if (facts.incidentDate > facts.today)
    return {
      code: 'INCIDENT_OUTSIDE_COVER',
      message: `The incident date ${facts.incidentDate} is after today (${facts.today})`,
    };
  if (facts.incidentDate < facts.coverageStartDate || facts.incidentDate > facts.coverageEndDate)
    return {
      code: 'INCIDENT_OUTSIDE_COVER',
      message: `The incident date ${facts.incidentDate} is outside the cover window ${facts.coverageStartDate} to ${facts.coverageEndDate}`,
    };
  if (coverageLineOf(facts.claimType, facts.coverageLines) === null)
    return {
      code: 'CLAIM_TYPE_NOT_COVERED',
      message: `The package of order ${facts.orderRef} has no coverage line for ${facts.claimType} claims`,
    };
  const lastDay = addDays(facts.coverageEndDate, facts.noticeDays);
  if (facts.today > lastDay)
    return {
      code: 'CLAIM_NOTICE_EXPIRED',
      message: `Claims on order ${facts.orderRef} could be filed until ${lastDay} (${facts.noticeDays} days after the cover ended)`,
    };
  return null;
}

/** Days after the incident beyond which a filing is flagged late (still inside the notice period). */
export const LATE_FILING_DAYS = 30;

export interface FlagFacts {
  claimType: ClaimType;
  incidentDate: string;
  today: string;
  /** The package's maximum altitude, metres. */
  maxAltitude: number;
  altitudeMeters: number | null;
  /** The assistance case named, with its altitude and whether the desk authorised it. */
  assistanceCase: { altitudeMeters: number; authorised: boolean } | null;
  currencies: readonly string[];
}

/** The facts the desk must weigh, in the contract's order. */
export function claimFlags(facts: FlagFacts): ClaimFlag[] {
  const altitudes = [facts.altitudeMeters, facts.assistanceCase?.altitudeMeters].filter(
    (altitude): altitude is number => typeof altitude === 'number',
  );
  const flags: ClaimFlag[] = [];
  if (altitudes.some((altitude) => altitude > facts.maxAltitude)) flags.push('ALTITUDE_ABOVE_COVER');
  if (facts.claimType === 'EMERGENCY_EVACUATION' && !facts.assistanceCase?.authorised) flags.push('NO_ASSISTANCE_CASE');
  if (facts.today > addDays(facts.incidentDate, LATE_FILING_DAYS)) flags.push('FILED_LATE_IN_NOTICE');
  if (facts.currencies.some((currency) => currency !== 'NPR')) flags.push('CURRENCY_CONVERSION');
  return flags;
}

/** The document types the desk needs to assess each claim type. */
const NEEDED: Readonly<Record<ClaimType, readonly DocumentType[]>> = {
  MEDICAL_EXPENSES: ['INVOICE', 'MEDICAL_REPORT'],
  EMERGENCY_EVACUATION: ['INVOICE', 'MEDICAL_REPORT'],
  TRIP_CANCELLATION: ['INVOICE', 'TRAVEL_DOCUMENT'],
  TRIP_INTERRUPTION: ['INVOICE', 'TRAVEL_DOCUMENT'],
  BAGGAGE_AND_EQUIPMENT: ['RECEIPT', 'POLICE_REPORT'],
  PERSONAL_ACCIDENT: ['MEDICAL_REPORT'],
};

/** The checklist: the needed types none of whose documents is attached yet (a RECEIPT stands for an INVOICE and back). */
export function documentsNeeded(claimType: ClaimType, attached: readonly DocumentType[]): DocumentType[] {
  const has = (type: DocumentType) =>
    attached.includes(type) ||
    (type === 'INVOICE' && attached.includes('RECEIPT')) ||
    (type === 'RECEIPT' && attached.includes('INVOICE'));
  return NEEDED[claimType].filter((type) => !has(type));
}

/** An invoice number compared as the desk reads it: case and surrounding blanks do not make another invoice. */
export const invoiceKey = (invoiceNumber: string): string => invoiceNumber.trim().toUpperCase();

/** The first item whose invoice another item of the same filing repeats (its index), or null. */
export function repeatedInvoice(invoiceNumbers: readonly string[]): number | null {
  const seen = new Set<string>();
  for (const [index, invoiceNumber] of invoiceNumbers.entries()) {
    const key = invoiceKey(invoiceNumber);
    if (seen.has(key)) return index;
    seen.add(key);
  }
  return null;
}

/** The earlier claim (not withdrawn) that already claims one of these invoices on the policy, or null. */
export function duplicateInvoice(
  invoiceNumbers: readonly string[],
  claimed: readonly { invoiceNumber: string; claimRef: string }[],
): { invoiceNumber: string; claimRef: string } | null {
  for (const invoiceNumber of invoiceNumbers) {
    const earlier = claimed.find((line) => invoiceKey(line.invoiceNumber) === invoiceKey(invoiceNumber));
    if (earlier) return { invoiceNumber, claimRef: earlier.claimRef };
  }
  return null;
}
