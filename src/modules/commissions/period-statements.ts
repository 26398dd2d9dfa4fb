import type { EntityManager } from '@mikro-orm/postgresql';
import { minorFromDecimalString } from '../../kernel/money';
import { periodStatus, type CommissionPeriod } from './rules/commission-period';
import type { PeriodTotals } from './statement-totals';

export interface CompanyStatement extends PeriodTotals {
  companyId: string;
  companyName: string;
}

interface Row {
  company_id: string;
  company_name: string;
  earned: string;
  reversed: string;
  line_count: string;
}

/**
 * Every non-empty statement of a period (or the one of `companyId`), by company name: the
 * operator's month-end list and the companies `commission.period_closed` goes to.
 */
export async function statementsOfPeriod(
  em: EntityManager,
  period: CommissionPeriod,
  companyId?: string,
  now = new Date(),
): Promise<CompanyStatement[]> {
  const rows = await em.execute<Row[]>(
    `select e.company_id, c.name as company_name,
       coalesce(sum(e.amount) filter (where e.kind = 'EARNED'), 0)::text as earned,
       coalesce(sum(e.amount) filter (where e.kind = 'REVERSED'), 0)::text as reversed, count(*)::text as line_count
     from commission_entry e join company c on c.id = e.company_id
     where e.period = ?${companyId ? ' and e.company_id = ?' : ''}
     group by e.company_id, c.name order by c.name, e.company_id`,
    companyId ? [period, companyId] : [period],
  );
  return rows.map((row) => {
    const earned = minorFromDecimalString(row.earned);
    const reversed = minorFromDecimalString(row.reversed);
    return {
      companyId: row.company_id,
      companyName: row.company_name,
      period,
      status: periodStatus(period, now),
      earned,
      reversed,
      net: earned + reversed,
      lineCount: Number(row.line_count),
    };
  });
}
