import { addDays, inclusiveDays } from '../../../kernel/business-date';
import { invalidField, type ErrorCode } from '../../../kernel/errors';
import type { Minor } from '../../../kernel/money';

/**
 * Extending a paid order's cover (decision record 0099): the new window, its premium by the
 * package's own pricing with the order's discount kept, and the rules that refuse it.
 */

/**
 * What an extension request asks for: a new last day of cover, or a number of days more, and
 * the disruption it is made under, free, if any (decision record 0102).
 */
export type ExtensionAsk = ({ coverageEndDate: string } | { extraDays: number }) & { disruptionId?: string };

export interface CoverWindow {
  coverageStartDate: string;
  coverageEndDate: string;
}

/**
 * Exactly one of `coverageEndDate` and `extraDays` (a 400 naming the field otherwise): the
 * extension's body carries the gateway too, so its schema cannot count properties as the
 * preview's does.
 */
export function extensionAsk(input: {
  coverageEndDate?: string;
  extraDays?: number;
  disruptionId?: string;
}): ExtensionAsk {
  if (input.coverageEndDate !== undefined && input.extraDays !== undefined)
    throw invalidField('extraDays', 'send either coverageEndDate or extraDays, not both');
  const under = input.disruptionId === undefined ? {} : { disruptionId: input.disruptionId.toUpperCase() };
  if (input.coverageEndDate !== undefined) return { coverageEndDate: input.coverageEndDate, ...under };
  if (input.extraDays !== undefined) return { extraDays: input.extraDays, ...under };
  throw invalidField('coverageEndDate', 'coverageEndDate or extraDays is required');
}

/** The new last day of cover the request names. */
export function requestedEnd(current: CoverWindow, ask: ExtensionAsk): string {
  return 'coverageEndDate' in ask ? ask.coverageEndDate : addDays(current.coverageEndDate, ask.extraDays);
}

/** A refusal: the code a partner branches on and the sentence it reads. */
export interface ExtensionRefusal {
  code: ErrorCode;
  message: string;
}

export interface ExtensionFacts {
  orderRef: string;
  orderStatus: string;
  current: CoverWindow;
  newEnd: string;
  /** The longest cover the package sells, in days. */
  maxDurationDays: number;
  /** Today's Nepal date (the test clock's in the sandbox). */
  today: string;
}

/**
 * Why the extension can never be allowed (paid status, later end, the package's maximum), or
 * null. Checked by the preview as by the extension itself.
 */
export function extensionRefusal(facts: ExtensionFacts): ExtensionRefusal | null {
  if (facts.orderStatus !== 'PAID') {
    return {
      code: 'ORDER_NOT_PAID',
      message: `Order ${facts.orderRef} is ${facts.orderStatus}: only a paid order's cover can be extended`,
    };
  }
  if (facts.newEnd <= facts.current.coverageEndDate) {
    return {
      code: 'EXTENSION_NOT_LATER',
      message: `The new end ${facts.newEnd} must come after the cover's current end ${facts.current.coverageEndDate}`,
    };
  }
  const days = inclusiveDays(facts.current.coverageStartDate, facts.newEnd);
  if (days > facts.maxDurationDays) {
    return {
      code: 'EXTENSION_TOO_LONG',
      message: `A cover ending ${facts.newEnd} would last ${days} days; this package covers at most ${facts.maxDurationDays}`,
    };
  }
  return null;
}

/**
 * Why the extension is not allowed today, or null: no cover is bought after the fact, so it is
 * asked (and paid) while the current cover runs, up to and including its last day (Nepal date).
 */
export function extensionTimeRefusal(
  facts: Pick<ExtensionFacts, 'current' | 'today' | 'orderRef'>,
): ExtensionRefusal | null {
  if (facts.today <= facts.current.coverageEndDate) return null;
  return {
    code: 'COVER_ENDED',
    message: `The cover of order ${facts.orderRef} ended on ${facts.current.coverageEndDate} (Nepal date); an ended cover cannot be extended`,
  };
}

/** What the order paid for its insurance, and what for added items (which an extension does not change). */
export interface PaidPremium {
  /** The order's total, as paid. */
  totalAmount: Minor;
  /** The package and kept devices before any discount, for the current window. */
  insurancePrice: Minor;
  /** Added services and devices, charged in full and untouched by the extension. */
  addedItemsPrice: Minor;
}

export interface ExtensionPrice {
  /** The order's premium for the new window: insurance repriced, the order's discount share kept, added items as they were. */
  newPremium: Minor;
  /** The new premium less what was paid, never negative. */
  amountDue: Minor;
}

/**
 * Prices an extension: the insurance for the new duration (`newInsurancePrice`, by the package's
 * pricing) is discounted by the same share the order's promo and direct discounts took off its
 * insurance, rounded half-up to a minor unit; the added items keep their price.
 */
export function extensionPrice(paid: PaidPremium, newInsurancePrice: Minor): ExtensionPrice {
  const paidInsurance = paid.totalAmount - paid.addedItemsPrice;
  const discounted =
    paid.insurancePrice > 0 ? Math.round((newInsurancePrice * paidInsurance) / paid.insurancePrice) : newInsurancePrice;
  const newPremium = discounted + paid.addedItemsPrice;
  return { newPremium, amountDue: Math.max(0, newPremium - paid.totalAmount) };
}

/** The number of days of cover from the start to the new end, both included. */
export const extendedDuration = (current: CoverWindow, newEnd: string): number =>
  inclusiveDays(current.coverageStartDate, newEnd);
