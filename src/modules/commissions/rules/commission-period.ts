import { kathmanduToday } from '../../../kernel/business-date';

/** A statement's month, `YYYY-MM`. */
export type CommissionPeriod = string;

export type PeriodStatus = 'OPEN' | 'CLOSED';

/** The Nepal month an instant falls in: an entry belongs to it for good. */
export function periodOf(at: Date): CommissionPeriod {
  return kathmanduToday(at).slice(0, 7);
}

export function isPeriod(value: string): boolean {
  if (!/^\d{4}-\d{2}$/.test(value)) return false;
  const month = Number(value.slice(5, 7));
  return month >= 1 && month <= 12;
}

/** A period is OPEN until its month is over in Nepal; then it never changes again. */
export function periodStatus(period: CommissionPeriod, now: Date): PeriodStatus {
  return period < periodOf(now) ? 'CLOSED' : 'OPEN';
}

/** The month before `period`. */
export function previousPeriod(period: CommissionPeriod): CommissionPeriod {
  const year = Number(period.slice(0, 4));
  const month = Number(period.slice(5, 7));
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}
