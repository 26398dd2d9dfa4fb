import type { QueryOf } from '../../../kernel/http/wire';

/**
 * Filters of GET /reference/ctgs and /reference/routes. Bands are named ranges documented in the
 * spec; a package matches a band when its own range overlaps it.
 */
const ALTITUDE_BANDS: Record<NonNullable<CtgFilter['altitudeBand']>, [number, number]> = {
  LOW: [0, 3000],
  HIGH: [3001, 6000],
  EXTREME: [6001, 9000],
};
const AGE_BANDS: Record<NonNullable<CtgFilter['ageBand']>, [number, number]> = {
  CHILD: [1, 17],
  ADULT: [18, 60],
  SENIOR: [61, 120],
};
const DURATION_BANDS: Record<NonNullable<CtgFilter['durationBand']>, [number, number]> = {
  SHORT: [1, 7],
  MEDIUM: [8, 21],
  LONG: [22, 366],
};

const overlaps = ([lo, hi]: [number, number], min: number, max: number) => min <= hi && lo <= max;
const contains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

export type CtgFilter = Pick<
  QueryOf<'listCtgs'>,
  'search' | 'altitudeBand' | 'durationBand' | 'ageBand' | 'productType'
>;

export interface FilterableCtg {
  code: string;
  name: string;
  insuranceCompany: string;
  description: string;
  productType: string;
  minAltitude: number;
  maxAltitude: number;
  minAge: number;
  maxAge: number;
  baseDurationDays: number;
}

export function matchesCtgFilter(ctg: FilterableCtg, filter: CtgFilter): boolean {
  const { search, altitudeBand, durationBand, ageBand, productType } = filter;
  if (search && ![ctg.code, ctg.name, ctg.insuranceCompany, ctg.description].some((field) => contains(field, search)))
    return false;
  if (altitudeBand && !overlaps(ALTITUDE_BANDS[altitudeBand], ctg.minAltitude, ctg.maxAltitude)) return false;
  if (ageBand && !overlaps(AGE_BANDS[ageBand], ctg.minAge, ctg.maxAge)) return false;
  if (durationBand && !overlaps(DURATION_BANDS[durationBand], ctg.baseDurationDays, ctg.baseDurationDays)) return false;
  if (productType && ctg.productType !== productType) return false;
  return true;
}

export type RouteFilter = Pick<QueryOf<'listRoutes'>, 'search' | 'region' | 'trekName' | 'routeType' | 'routeCategory'>;

export interface FilterableRoute {
  name: string;
  region: string;
  trekName: string;
  routeType: string;
  routeCategory: string;
}

export function matchesRouteFilter(route: FilterableRoute, filter: RouteFilter): boolean {
  const { search, region, trekName, routeType, routeCategory } = filter;
  if (search && ![route.name, route.region, route.trekName].some((field) => contains(field, search))) return false;
  if (region && route.region.toLowerCase() !== region.toLowerCase()) return false;
  if (trekName && !contains(route.trekName, trekName)) return false;
  if (routeType && route.routeType !== routeType) return false;
  if (routeCategory && route.routeCategory !== routeCategory) return false;
  return true;
}
