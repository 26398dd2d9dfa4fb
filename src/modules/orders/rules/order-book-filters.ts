import type { FieldErrors } from '../../../kernel/errors';
import { isReference, type ReferenceKind } from './order-reference';

/** The order book's filters as the spec names them (the schema has already checked each on its own). */
export interface OrderBookFilter {
  status?: string[];
  paymentStatus?: string;
  departureFrom?: string;
  departureTo?: string;
  createdFrom?: string;
  createdTo?: string;
  groupRef?: string;
  touristId?: string;
  search?: string;
}

/** The bounds that hold between two filters; each filter's own bounds are the schema's. */
export function orderBookFilterErrors(filter: OrderBookFilter): FieldErrors {
  const errors: FieldErrors = {};
  if (
    filter.departureFrom !== undefined &&
    filter.departureTo !== undefined &&
    filter.departureTo < filter.departureFrom
  ) {
    errors.departureTo = `must not be before departureFrom (${filter.departureFrom})`;
  }
  if (
    filter.createdFrom !== undefined &&
    filter.createdTo !== undefined &&
    Date.parse(filter.createdTo) <= Date.parse(filter.createdFrom)
  ) {
    errors.createdTo = `must be after createdFrom (${filter.createdFrom})`;
  }
  if (filter.search !== undefined && filter.search.trim().length < 2)
    errors.search = 'must have at least 2 characters besides spaces';
  return errors;
}

/** What a search term names: one order by a whole reference (any case), or part of a traveller's name. */
export type OrderSearch =
  | { kind: 'reference'; column: 'order_ref' | 'order_number' | 'policy_number'; value: string }
  | { kind: 'name'; fragment: string };

const REFERENCE_COLUMNS: ReadonlyArray<[ReferenceKind, 'order_ref' | 'order_number' | 'policy_number']> = [
  ['ORD', 'order_ref'],
  ['ORDN', 'order_number'],
  ['POL', 'policy_number'],
];

export function orderSearchOf(term: string): OrderSearch {
  const trimmed = term.trim();
  const upper = trimmed.toUpperCase();
  for (const [kind, column] of REFERENCE_COLUMNS) {
    if (isReference(kind, upper)) return { kind: 'reference', column, value: upper };
  }
  return { kind: 'name', fragment: trimmed };
}
