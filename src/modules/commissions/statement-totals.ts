import type { EntityManager } from '@mikro-orm/postgresql';
import { minorFromDecimalString, type Minor } from '../../kernel/money';
import { periodStatus, type CommissionPeriod, type PeriodStatus } from './rules/commission-period';

export interface PeriodTotals {
  period: CommissionPeriod;
  status: PeriodStatus;
  earned: Minor;
  reversed: Minor;
  net: Minor;
  lineCount: number;
}

export interface TotalsRow {
  period: string;
  earned: string;
  reversed: string;
  line_count: string;
}

// The statement index carries kind and amount, so a month of 50,000 lines is summed from the index alone.
const TOTALS_SQL = `select period, coalesce(sum(amount) filter (where kind = 'EARNED'), 0)::text as earned,
  coalesce(sum(amount) filter (where kind = 'REVERSED'), 0)::text as reversed, count(*)::text as line_count
  from commission_entry where company_id = ?`;

/** One period's totals for the native client (`$1` company, `$2` period): read in the same snapshot as the lines. */
export const PERIOD_TOTALS_SQL = `${TOTALS_SQL.replace('?', '$1')} and period = $2 group by period`;

export const noLines = (period: CommissionPeriod): TotalsRow => ({
  period,
  earned: '0',
  reversed: '0',
  line_count: '0',
});

export const totalsOf = (row: TotalsRow, now: Date): PeriodTotals => {
  const earned = minorFromDecimalString(row.earned);
  const reversed = minorFromDecimalString(row.reversed);
  return {
    period: row.period,
    status: periodStatus(row.period, now),
    earned,
    reversed,
    net: earned + reversed,
    lineCount: Number(row.line_count),
  };
};

/** Every period in which the company has lines, newest first, with its totals. */
export async function periodsOf(em: EntityManager, companyId: string, now = new Date()): Promise<PeriodTotals[]> {
  const rows = await em.execute<TotalsRow[]>(`${TOTALS_SQL} group by period order by period desc`, [companyId]);
  return rows.map((row) => totalsOf(row, now));
}

/** One period's totals; a period without lines adds up to zeros. */
export async function periodTotals(
  em: EntityManager,
  companyId: string,
  period: CommissionPeriod,
  now = new Date(),
): Promise<PeriodTotals> {
  const [row] = await em.execute<TotalsRow[]>(`${TOTALS_SQL} and period = ? group by period`, [companyId, period]);
  return totalsOf(row ?? noLines(period), now);
}
