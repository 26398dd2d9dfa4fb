import type { Minor } from '../../../kernel/money';
import type { Schemas } from '../../../kernel/http/wire';

/**
 * The desk's assessment in NPR paisa, exact (decision record 0095): each item converted at the
 * rate the desk recorded (the service never fetches rates), the policy excess deducted once per
 * claim, and the total held within what the coverage line has left after earlier claims and
 * within a guarantee of payment's cap (0101).
 */

/** An exchange rate as the desk types it: NPR for one unit, at most eight digits and four decimals. */
const RATE = /^(\d{1,8})(?:\.(\d{1,4}))?$/;

/** The rate in ten-thousandths of a rupee, or null when it is not a positive rate. */
export function rateUnits(rate: string): bigint | null {
  const match = RATE.exec(rate.trim());
  if (!match) return null;
  const units = BigInt(match[1] ?? '0') * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'));
  return units > 0n ? units : null;
}

/** The rate as stored and shown: four decimals. */
export function rateText(rate: string): string {
  const units = rateUnits(rate);
  if (units === null) throw new Error(`Not an exchange rate: ${rate}`);
  return `${units / 10_000n}.${String(units % 10_000n).padStart(4, '0')}`;
}

/**
 * NPR paisa of `amount` hundredths of `currency` at `rate` (NPR per unit), half up: hundredths
 * times rupees per unit is paisa, so only the rate's four decimals are divided away.
 */
export function nprOf(amount: Minor, currency: string, rate: string | null): Minor {
  if (currency === 'NPR') return amount;
  const units = rate === null ? null : rateUnits(rate);
  if (units === null) throw new Error(`An item in ${currency} needs an exchange rate`);
  return Number((BigInt(amount) * units + 5_000n) / 10_000n);
}

export interface ItemApproval {
  position: number;
  /** As claimed, hundredths of `currency`. */
  amount: Minor;
  currency: string;
  /** What the desk approves, hundredths of `currency`; 0 declines the item. */
  approvedAmount: Minor;
  /** NPR per unit; null for NPR. */
  exchangeRate: string | null;
  rateDate: string | null;
}

export interface AssessmentInput {
  items: readonly ItemApproval[];
  /** The package's excess, NPR paisa, deducted once per claim. */
  excess: Minor;
  /** The coverage line's amount, NPR paisa. */
  lineLimit: Minor;
  /** What earlier claims on the same policy and line were approved (and not since withdrawn), NPR paisa. */
  earlierApproved: Minor;
  /** The most payable on this claim, NPR paisa: a guarantee of payment's cap (decision record 0101). */
  cap?: Minor | null;
}

export interface Assessment {
  itemsNpr: Minor[];
  gross: Minor;
  excessApplied: Minor;
  approvedTotal: Minor;
  /** APPROVE when every item is approved in full and the line's limit took nothing; else APPROVE_PARTIALLY. */
  step: 'APPROVE' | 'APPROVE_PARTIALLY';
}

/** The assessment, or why the desk's figures cannot stand. */
export function assess(input: AssessmentInput): Assessment | { refused: string } {
  for (const item of input.items) {
    if (!Number.isSafeInteger(item.approvedAmount) || item.approvedAmount < 0)
      return { refused: `item ${item.position}: the approved amount must be whole hundredths, not negative` };
    if (item.approvedAmount > item.amount)
      return { refused: `item ${item.position}: the approved amount is more than the ${item.currency} claimed` };
    if (item.currency === 'NPR' && item.exchangeRate !== null)
      return { refused: `item ${item.position} is in NPR and takes no exchange rate` };
    if (item.currency !== 'NPR' && (item.exchangeRate === null || rateUnits(item.exchangeRate) === null))
      return {
        refused: `item ${item.position} is in ${item.currency}: give the exchange rate used (NPR for 1 ${item.currency})`,
      };
    if (item.currency !== 'NPR' && item.rateDate === null)
      return { refused: `item ${item.position} is in ${item.currency}: give the date of the exchange rate` };
  }
  const itemsNpr = input.items.map((item) => nprOf(item.approvedAmount, item.currency, item.exchangeRate));
  const gross = itemsNpr.reduce((sum, npr) => sum + npr, 0);
  // Deducted whole: a claim the excess would not fully cover pays nothing and is refused below.
  const excessApplied = input.excess;
  const room = Math.max(0, input.lineLimit - input.earlierApproved);
  const approvedTotal = Math.min(gross - excessApplied, room, input.cap ?? Number.MAX_SAFE_INTEGER);
  if (approvedTotal <= 0)
    return {
      refused:
        room === 0
          ? 'the coverage line is used up by earlier claims on this policy: decline the claim instead'
          : 'nothing is payable after the excess: decline the claim instead',
    };
  const full =
    input.items.every((item) => item.approvedAmount === item.amount) && approvedTotal === gross - excessApplied;
  return { itemsNpr, gross, excessApplied, approvedTotal, step: full ? 'APPROVE' : 'APPROVE_PARTIALLY' };
}

type DeclineReason = Schemas['ClaimDeclineReason'];

/** A decline names its reason; OTHER says it in a note. */
export function declineProblem(reason: DeclineReason, note: string | null): string | null {
  return reason === 'OTHER' && !note?.trim() ? 'a decline for OTHER reasons needs a note saying which' : null;
}

/**
 * The sandbox desk's rates (NPR for one unit), close to the Nepal Rastra Bank's of late 2026, so
 * that a partner's CI sees plausible figures; any other currency converts at 100.
 */
const SANDBOX_RATES: Readonly<Record<string, string>> = { USD: '133.5000', EUR: '145.0000', INR: '1.6000' };

export const sandboxRate = (currency: string): string | null =>
  currency === 'NPR' ? null : (SANDBOX_RATES[currency] ?? '100.0000');
