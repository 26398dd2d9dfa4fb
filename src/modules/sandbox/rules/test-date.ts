import { isCalendarDate } from '../../../kernel/business-date';

/** Why a date cannot be a test clock's today: the service's bounds on trip dates (the contract's conventions), else null. */
export function testDateProblem(today: string): string | null {
  if (!isCalendarDate(today)) return 'must be a calendar date YYYY-MM-DD';
  return today < '2000-01-01' || today > '2099-12-31' ? 'must be from 2000-01-01 to 2099-12-31' : null;
}
