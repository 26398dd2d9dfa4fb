import { addDays, inclusiveDays } from '../../../kernel/business-date';
import { ageOutsideBand, departureDateError, type AgeBand } from './order-request';
import { businessToday } from '../../../kernel/business-today';

/**
 * Moving an order's departure date (decision record 0060). Pure rules; departure-change.ts
 * locks the order and applies them.
 */

/** An order's dates: the departure and the cover window (both ends included). */
export interface OrderDates {
  departureDate: string;
  coverageStartDate: string;
  coverageEndDate: string;
}

/** What the rules read of an order; the entity satisfies it. */
export interface MovableOrder extends OrderDates {
  orderRef: string;
  status: string;
}

/** The statuses whose dates may move: an order still to be paid, and a paid one whose cover is ahead. */
const MOVABLE_STATUSES: ReadonlySet<string> = new Set(['PENDING', 'PAID']);

/**
 * Why the order's dates cannot move at all, or null when they can: a cancelled (or otherwise
 * closed) order, or one whose first day of cover has come (Nepal date), paid or not: from then
 * the insurer may be on risk, and an unpaid order past its start is booked anew.
 */
export function departureChangeRefusal(order: MovableOrder, today = businessToday()): string | null {
  if (order.status === 'CANCELLED')
    return `Order ${order.orderRef} is CANCELLED; a cancelled order's dates cannot change`;
  if (!MOVABLE_STATUSES.has(order.status))
    return `Order ${order.orderRef} is ${order.status}; only a PENDING or PAID order's dates can change`;
  if (order.coverageStartDate <= today) {
    return `The cover of order ${order.orderRef} started on ${order.coverageStartDate} (Nepal date); its dates can no longer change`;
  }
  return null;
}

/**
 * The error of the new date itself, or null: the bound creation puts on a departure, and the
 * traveller's age at the new date within the package's band (creation's own two rules).
 */
export function newDepartureError(
  departureDate: string,
  traveller: { dateOfBirth: string },
  ctg: AgeBand & { code: string },
  today = businessToday(),
): string | null {
  const bound = departureDateError(departureDate, today);
  if (bound) return bound;
  const age = ageOutsideBand(traveller.dateOfBirth, departureDate, ctg);
  return age === null
    ? null
    : `the traveller would be ${age} on ${departureDate}; package ${ctg.code} covers ages ${ctg.minAge} to ${ctg.maxAge}`;
}

/**
 * The error of a new date too far from the departure the order was booked with, or null: a date
 * change moves a trip, it does not buy cover for another year at this year's price.
 */
export function departureShiftError(departureDate: string, bookedDeparture: string, maxDays: number): string | null {
  const latest = addDays(bookedDeparture, maxDays);
  return departureDate > latest
    ? `must be at most ${maxDays} days after the departure the order was booked with (${bookedDeparture}): ${latest} at the latest`
    : null;
}

/** The order's dates moved to `departureDate`: the window shifts by as many days, so it keeps its length. */
export function movedDates(order: OrderDates, departureDate: string): OrderDates {
  const shift = inclusiveDays(order.departureDate, departureDate) - 1;
  return {
    departureDate,
    coverageStartDate: addDays(order.coverageStartDate, shift),
    coverageEndDate: addDays(order.coverageEndDate, shift),
  };
}
