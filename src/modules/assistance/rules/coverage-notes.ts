/** Something the desk should know about the cover; never a reason to refuse a case. */
export type CoverageNote = 'ALTITUDE_ABOVE_COVER' | 'OUTSIDE_COVER_WINDOW';

export interface CoverFacts {
  /** The policy package's maximum altitude, metres. */
  maxAltitude: number;
  coverageStartDate: string;
  coverageEndDate: string;
}

/**
 * What is unusual about this case against the policy: a traveller in danger always gets a case
 * (decision record 0073: coverage never blocks one), so these are notes for the desk.
 * `today` is the Nepal business date; the window includes both ends.
 */
export function coverageNotes(cover: CoverFacts, altitudeMeters: number, today: string): CoverageNote[] {
  const notes: CoverageNote[] = [];
  if (altitudeMeters > cover.maxAltitude) notes.push('ALTITUDE_ABOVE_COVER');
  if (today < cover.coverageStartDate || today > cover.coverageEndDate) notes.push('OUTSIDE_COVER_WINDOW');
  return notes;
}
