import { ageOn } from '../../../kernel/business-date';
import { businessToday } from '../../../kernel/business-today';

/** The fields of one order request that the rules below read; the spec's OrderInput satisfies it. */
export interface OrderRequest {
  routeId?: string;
  customRouteName?: string;
  departureDate: string;
  travelCompanyIds?: string[];
  customTravelAgencies?: Array<{ name: string }>;
  directDiscountPercent?: number;
  addedServices?: Array<{ price: number }>;
  addedDevices?: Array<{ price: number }>;
  extraFields?: object;
  dispatchInfo?: object;
}

export interface OrderCaller {
  companyId: string;
  /** A travel agency is put on every order it places. */
  isTravelAgency: boolean;
  /** Ceiling of directDiscountPercent. */
  commissionPercent: number;
}

export const MAX_AGENCIES_PER_ORDER = 2;
export const MAX_FREE_FORM_BYTES = 8 * 1024;

/**
 * The registered agencies of an order: a travel agency's own company first (injected, spec/components/schemas/OrderInput.yaml),
 * then the requested ones, without duplicates.
 */
export function orderTravelCompanyIds(request: OrderRequest, caller: OrderCaller): string[] {
  const requested = (request.travelCompanyIds ?? []).map((id) => id.toLowerCase());
  return [...new Set(caller.isTravelAgency ? [caller.companyId, ...requested] : requested)];
}

/**
 * The rules of one order request that need no stored data (the schema has already checked types,
 * formats and sizes). Returns field errors keyed by field name; empty when the request is sound.
 */
export function orderRequestErrors(
  request: OrderRequest,
  caller: OrderCaller,
  today = businessToday(),
): Record<string, string> {
  const errors: Record<string, string> = {};
  const hasRoute = request.routeId !== undefined;
  const hasCustomRoute = request.customRouteName !== undefined;
  if (hasRoute && hasCustomRoute) errors.customRouteName = 'send either routeId or customRouteName, not both';
  if (!hasRoute && !hasCustomRoute) errors.routeId = 'routeId or customRouteName is required';
  if (hasCustomRoute && request.customRouteName!.trim() === '') errors.customRouteName = 'must not be blank';

  const departureError = departureDateError(request.departureDate, today);
  if (departureError) errors.departureDate = departureError;

  const agencies = orderTravelCompanyIds(request, caller).length + (request.customTravelAgencies ?? []).length;
  if (agencies > MAX_AGENCIES_PER_ORDER) {
    const field = (request.customTravelAgencies ?? []).length > 0 ? 'customTravelAgencies' : 'travelCompanyIds';
    errors[field] = caller.isTravelAgency
      ? `at most ${MAX_AGENCIES_PER_ORDER} agencies in total, including your own company`
      : `at most ${MAX_AGENCIES_PER_ORDER} agencies in total`;
  }
  (request.customTravelAgencies ?? []).forEach((agency, index) => {
    if (agency.name.trim() === '') errors[`customTravelAgencies[${index}].name`] = 'must not be blank';
  });

  const percent = request.directDiscountPercent;
  if (percent !== undefined) {
    if (!hasAtMostTwoDecimals(percent)) errors.directDiscountPercent = 'must have at most two decimals';
    else if (percent > caller.commissionPercent) {
      errors.directDiscountPercent = `must not exceed your commission of ${caller.commissionPercent} %`;
    }
  }

  for (const list of ['addedServices', 'addedDevices'] as const) {
    (request[list] ?? []).forEach((item, index) => {
      if (!hasAtMostTwoDecimals(item.price)) errors[`${list}[${index}].price`] = 'must have at most two decimals';
    });
  }

  for (const field of ['extraFields', 'dispatchInfo'] as const) {
    const value = request[field];
    if (value !== undefined && Buffer.byteLength(JSON.stringify(value)) > MAX_FREE_FORM_BYTES) {
      errors[field] = `must be at most ${MAX_FREE_FORM_BYTES} bytes as JSON`;
    }
  }
  return errors;
}

/**
 * Why a departure date is not one an order can start on, or null: the bound of creation, which a
 * date change applies again (the schema has already kept it within 2000 to 2099).
 */
export function departureDateError(departureDate: string, today = businessToday()): string | null {
  return departureDate < today ? `must not be before today (${today}, Kathmandu)` : null;
}

/** A package's age band: the ages it covers, both included. */
export interface AgeBand {
  minAge: number;
  maxAge: number;
}

/**
 * The traveller's age on `day` when the package's band does not cover it, or null when it does.
 * Creation asks at the departure date, a date change at the new one.
 */
export function ageOutsideBand(dateOfBirth: string, day: string, band: AgeBand): number | null {
  const age = ageOn(dateOfBirth, day);
  return age < band.minAge || age > band.maxAge ? age : null;
}

function hasAtMostTwoDecimals(value: number): boolean {
  const cents = value * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}
