import { decimalStringFromMinor, type Minor } from '../../../kernel/money';

/** The timeline's line for an authorisation, so the partner reads the guarantee in words too. */
export function guaranteeNote(guarantee: {
  guaranteeRef: string;
  operator: string;
  costLimit: Minor;
  currency: string;
  destinationHospital: string;
}): string {
  const limit = Number(decimalStringFromMinor(guarantee.costLimit)).toLocaleString('en-US', {
    minimumFractionDigits: 2,
  });
  return `Guarantee ${guarantee.guaranteeRef} to ${guarantee.operator}, up to ${guarantee.currency} ${limit}, to ${guarantee.destinationHospital}`;
}
