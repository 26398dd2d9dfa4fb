import { addDays, inclusiveDays, isCalendarDate } from '../../../kernel/business-date';

/**
 * Weather disruptions of an area (decision record 0102): what an operator may declare, and
 * whether one is active.
 */

/** The most free days one disruption may give a cover. */
export const MAX_DISRUPTION_DAYS = 30;

/** How long after its last day an ended disruption is still listed to partners. */
export const RECENT_DISRUPTION_DAYS = 30;

export interface DisruptionDeclaration {
  area: string;
  startsOn: string;
  endsOn: string;
  maxDays: number;
  note: string;
}

/** Why a declaration cannot be made (naming the command's option), or null; `knownAreas` are the catalogue's. */
export function declarationProblem(declaration: DisruptionDeclaration, knownAreas: readonly string[]): string | null {
  if (!knownAreas.includes(declaration.area))
    return `--area: no route of the catalogue is in area ${declaration.area} (areas: ${knownAreas.join(', ') || 'none'})`;
  if (!isCalendarDate(declaration.startsOn)) return '--from must be a date YYYY-MM-DD';
  if (!isCalendarDate(declaration.endsOn)) return '--to must be a date YYYY-MM-DD';
  if (declaration.endsOn < declaration.startsOn) return `--to must not be before --from ${declaration.startsOn}`;
  if (!Number.isInteger(declaration.maxDays) || declaration.maxDays < 1 || declaration.maxDays > MAX_DISRUPTION_DAYS)
    return `--max-days must be a whole number of days from 1 to ${MAX_DISRUPTION_DAYS}`;
  if (declaration.note.trim() === '') return '--note must say what happened, for partners to read';
  return null;
}

/** The dates that decide a disruption: as declared, and the last day of one ended early. */
export interface DisruptionDates {
  startsOn: string;
  endsOn: string;
  endedOn?: string | null;
}

/** Its last day: the day the operator ended it, else the declared one. */
export const lastDayOf = (disruption: DisruptionDates): string => disruption.endedOn ?? disruption.endsOn;

/** ENDED once the operator ended it or its last day has passed (Nepal date); ACTIVE before. */
export function disruptionStatus(disruption: DisruptionDates & { endedAt?: Date | null }, today: string) {
  return disruption.endedAt || today > lastDayOf(disruption) ? ('ENDED' as const) : ('ACTIVE' as const);
}

/** The first last day a listing still shows: an ended disruption is listed for a while after it. */
export const listedSince = (today: string): string => addDays(today, -RECENT_DISRUPTION_DAYS);

/** The days of a window, both ends included. */
export const disruptionDays = (disruption: DisruptionDates): number =>
  inclusiveDays(disruption.startsOn, lastDayOf(disruption));
