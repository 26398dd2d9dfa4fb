import { inclusiveDays } from '../../../kernel/business-date';
import type { ExtensionRefusal } from './extension';

/**
 * A free extension under a weather disruption (decision record 0102): the order's route is in
 * the disruption's area, the cover's last day before any extension under it falls within the
 * disruption, and all its extensions under it add at most `maxDays`.
 */
export interface DisruptionExtensionFacts {
  orderRef: string;
  disruption: { ref: string; area: string; startsOn: string; lastDay: string; maxDays: number };
  /** The area of the order's route; null for a typed-in route, which is in none. */
  routeArea: string | null;
  routeName: string;
  /** The cover's last day before its first extension under this disruption (its current one if none). */
  baseEnd: string;
  newEnd: string;
}

/** Why the extension can never be made under this disruption (a 400), or null. */
export function disruptionExtensionRefusal(facts: DisruptionExtensionFacts): ExtensionRefusal | null {
  const { disruption } = facts;
  if (facts.routeArea !== disruption.area)
    return {
      code: 'ROUTE_NOT_IN_DISRUPTION_AREA',
      message: `The route of order ${facts.orderRef} (${facts.routeName}) is not in area ${disruption.area} of disruption ${disruption.ref}`,
    };
  if (facts.baseEnd < disruption.startsOn || facts.baseEnd > disruption.lastDay)
    return {
      code: 'COVER_NOT_ENDING_IN_DISRUPTION',
      message: `The cover of order ${facts.orderRef} ends on ${facts.baseEnd}, not within disruption ${disruption.ref} (${disruption.startsOn} to ${disruption.lastDay})`,
    };
  const freeDays = freeDaysBetween(facts.baseEnd, facts.newEnd);
  if (freeDays > disruption.maxDays)
    return {
      code: 'DISRUPTION_DAYS_EXCEEDED',
      message: `Disruption ${disruption.ref} extends a cover by at most ${disruption.maxDays} days free; this would be ${freeDays} days after ${facts.baseEnd}`,
    };
  return null;
}

/** The refusal of an extension under a disruption that has ended (a 409: it was possible before), or null. */
export function disruptionEndedRefusal(disruption: {
  ref: string;
  lastDay: string;
  ended: boolean;
}): ExtensionRefusal | null {
  if (!disruption.ended) return null;
  return {
    code: 'DISRUPTION_ENDED',
    message: `Disruption ${disruption.ref} ended on ${disruption.lastDay}; no cover is extended under it any more`,
  };
}

/** The days a cover gains moving its last day from `from` to `to`. */
export const freeDaysBetween = (from: string, to: string): number => inclusiveDays(from, to) - 1;
