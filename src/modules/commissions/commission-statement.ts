import type { EntityManager } from '@mikro-orm/postgresql';
import { IsolationLevel } from '@mikro-orm/core';
import { Company } from '../partners/entities/company';
import { offsetOf, type PageRequest } from '../../kernel/http/pagination';
import type { CommissionPeriod } from './rules/commission-period';
import { statementLinesPage, type StatementLine } from './statement-rows';
import { periodTotals, type PeriodTotals } from './statement-totals';
import { statementNumber } from './rules/statement-figures';
import { insurerPanNumber } from './settings';

export interface CommissionStatement extends PeriodTotals {
  company: { id: string; name: string; panNumber: string | null };
  /** What the printed statement carries too (decision record 0098). */
  statementNumber: string;
  issuerPan: string;
  lines: StatementLine[];
}

/**
 * `GET /commission-statements/{period}` as JSON: the totals of the caller's lines of the month and
 * one page of them, read in one repeatable-read snapshot so the page and the totals agree.
 */
export async function commissionStatement(
  em: EntityManager,
  companyId: string,
  period: CommissionPeriod,
  page: PageRequest,
  now = new Date(),
): Promise<CommissionStatement> {
  return em.transactional(
    async (tx) => {
      const company = await tx.findOneOrFail(Company, companyId);
      const totals = await periodTotals(tx, companyId, period, now);
      const lines =
        totals.lineCount > offsetOf(page)
          ? await statementLinesPage(tx, companyId, period, page.size, offsetOf(page))
          : [];
      return {
        ...totals,
        company: { id: company.id, name: company.name, panNumber: company.panNumber ?? null },
        statementNumber: statementNumber(period, company.id),
        issuerPan: insurerPanNumber(),
        lines,
      };
    },
    { readOnly: true, isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}
