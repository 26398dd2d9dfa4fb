import type { EntityManager } from '@mikro-orm/postgresql';
import { amountFromMinor, minorFromDecimalString } from '../../kernel/money';
import { recordWebhookEvent } from '../webhooks';
import { periodOf, previousPeriod } from './rules/commission-period';

/** How many ended months a run looks back at: a cluster down over a month end still tells each partner. */
const MONTHS_LOOKED_BACK = 3;

interface UnannouncedRow {
  company_id: string;
  period: string;
  earned: string;
  reversed: string;
  line_count: string;
}

export interface ClosedPeriods {
  /** `companyId period` of each statement announced by this run. */
  announced: string[];
}

/**
 * Tells each company with lines in a month that has ended in Nepal that its statement is CLOSED:
 * `commission.period_closed` with the totals it keeps, once per company and month. The note of
 * the close and the event commit together; the note's primary key lets only one of two racing
 * runs write them, so a cluster announces each statement once.
 */
export async function announceClosedPeriods(
  em: EntityManager,
  currency: string,
  now = new Date(),
): Promise<ClosedPeriods> {
  const current = periodOf(now);
  let oldest = current;
  for (let i = 0; i < MONTHS_LOOKED_BACK; i++) oldest = previousPeriod(oldest);
  return em.transactional(async (tx) => {
    const rows = await tx.execute<UnannouncedRow[]>(
      `select e.company_id, e.period,
         coalesce(sum(e.amount) filter (where e.kind = 'EARNED'), 0)::text as earned,
         coalesce(sum(e.amount) filter (where e.kind = 'REVERSED'), 0)::text as reversed, count(*)::text as line_count
       from commission_entry e
       where e.period >= ? and e.period < ?
         and not exists (select 1 from commission_period_close c where c.company_id = e.company_id and c.period = e.period)
       group by e.company_id, e.period order by e.period, e.company_id`,
      [oldest, current],
    );
    const announced: string[] = [];
    for (const row of rows) {
      const noted = await tx.execute<unknown[]>(
        `insert into commission_period_close (company_id, period, closed_at) values (?, ?, ?) on conflict do nothing returning company_id`,
        [row.company_id, row.period, now],
      );
      if (noted.length === 0) continue;
      const earned = minorFromDecimalString(row.earned);
      const reversed = minorFromDecimalString(row.reversed);
      recordWebhookEvent(
        tx,
        row.company_id,
        'commission.period_closed',
        {
          period: row.period,
          status: 'CLOSED',
          currency,
          earned: amountFromMinor(earned),
          reversed: amountFromMinor(reversed),
          net: amountFromMinor(earned + reversed),
          lineCount: Number(row.line_count),
        },
        now,
      );
      announced.push(`${row.company_id} ${row.period}`);
    }
    return { announced };
  });
}
