/** What choosing a package needs to know of it. */
export interface EligiblePackage {
  id: string;
  active: boolean;
  routeId: string | null;
  minAltitude: number;
  maxAltitude: number;
  minAge: number;
  maxAge: number;
  displayOrder: number;
}

export interface Trip {
  altitude: number;
  age: number;
  routeId: string | null;
}

/** A special-route package is sold only on its own route; every other package on any route. */
export function isEligible(ctg: EligiblePackage, trip: Trip): boolean {
  return (
    ctg.active &&
    (ctg.routeId === null || ctg.routeId === trip.routeId) &&
    ctg.minAltitude <= trip.altitude &&
    trip.altitude <= ctg.maxAltitude &&
    ctg.minAge <= trip.age &&
    trip.age <= ctg.maxAge
  );
}

/** The recommended package: eligible, preferring one tied to the trip's route, then the lowest displayOrder. */
export function recommendPackage<T extends EligiblePackage>(ctgs: readonly T[], trip: Trip): T | undefined {
  return ctgs
    .filter((ctg) => isEligible(ctg, trip))
    .sort((a, b) => Number(b.routeId !== null) - Number(a.routeId !== null) || a.displayOrder - b.displayOrder)[0];
}
