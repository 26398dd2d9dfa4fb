import { addDays, inclusiveDays } from '../../../kernel/business-date';
import type { Schemas } from '../../../kernel/http/wire';
import { businessToday } from '../../../kernel/business-today';

export type TripRequest = Pick<
  Schemas['QuoteRequest'],
  'startDate' | 'endDate' | 'duration' | 'routeId' | 'maxAltitude'
>;

export interface TripWindow {
  startDate: string;
  endDate: string;
  durationDays: number;
}

export const MAX_TRIP_DAYS = 365;

/**
 * The rules of a quote the schema cannot say: trip length is given one way only, altitude one
 * way only, and the window is a real one that has not begun before today in Kathmandu.
 * Returns field errors; an empty object means the request is sound.
 */
export function quoteRequestErrors(request: TripRequest, today = businessToday()): Record<string, string> {
  const errors: Record<string, string> = {};
  const hasEnd = request.endDate !== undefined;
  const hasDuration = request.duration !== undefined;
  if (hasEnd && hasDuration) errors.duration = 'send either endDate or duration, not both';
  if (!hasEnd && !hasDuration) errors.endDate = 'endDate or duration is required';
  const hasRoute = request.routeId !== undefined;
  const hasAltitude = request.maxAltitude !== undefined;
  if (hasRoute && hasAltitude) errors.maxAltitude = 'send either routeId or maxAltitude, not both';
  if (!hasRoute && !hasAltitude) errors.maxAltitude = 'maxAltitude is required when routeId is omitted';
  if (request.startDate < today) errors.startDate = `must not be before today (${today}, Kathmandu)`;
  if (hasEnd && !hasDuration && request.endDate! < request.startDate) errors.endDate = 'must not be before startDate';
  if (hasEnd && !hasDuration && inclusiveDays(request.startDate, request.endDate!) > MAX_TRIP_DAYS) {
    errors.endDate = `the trip may last at most ${MAX_TRIP_DAYS} days`;
  }
  return errors;
}

/** The inclusive coverage window; call only when quoteRequestErrors found nothing. */
export function tripWindow(request: TripRequest): TripWindow {
  if (request.endDate !== undefined) {
    return {
      startDate: request.startDate,
      endDate: request.endDate,
      durationDays: inclusiveDays(request.startDate, request.endDate),
    };
  }
  // quoteRequestErrors has made sure one of endDate and duration is there.
  const durationDays = request.duration ?? 1;
  return { startDate: request.startDate, endDate: addDays(request.startDate, durationDays - 1), durationDays };
}
