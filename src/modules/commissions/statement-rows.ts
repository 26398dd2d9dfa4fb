import type { EntityManager } from '@mikro-orm/postgresql';
import { minorFromDecimalString, type Minor } from '../../kernel/money';
import type { CommissionEntryKind } from './entities/commission-entry';
import type { CommissionRole } from './rules/commission-earners';

/** A statement line as read for a partner: the entry and its order's reference. */
export interface StatementLine {
  lineId: string;
  kind: CommissionEntryKind;
  role: CommissionRole;
  orderRef: string;
  policyNumber: string | null;
  paymentRef: string;
  refundRef: string | null;
  agentId: string | null;
  base: Minor;
  percent: string;
  capped: boolean;
  amount: Minor;
  currency: string;
  occurredAt: Date;
  period: string;
}

/** The row the SQL below gives; money and percents as numeric text, so nothing passes through a float. */
export interface StatementLineRow {
  id: string;
  occurred_at: Date;
  kind: CommissionEntryKind;
  role: CommissionRole;
  order_ref: string;
  policy_number: string | null;
  payment_ref: string;
  refund_ref: string | null;
  agent_id: string | null;
  base: string;
  percent: string;
  capped: boolean;
  amount: string;
  currency: string;
  period: string;
}

/** One company's lines of one period, oldest first (the statement index's order). `$1` company, `$2` period. */
export const STATEMENT_LINES_SQL = `select e.id, e.occurred_at, e.kind, e.role, o.order_ref, e.policy_number, e.payment_ref, e.refund_ref, e.agent_id,
  e.base::text as base, e.percent::text as percent, e.capped, e.amount::text as amount, e.currency, e.period
  from commission_entry e join insurance_order o on o.id = e.order_id
  where e.company_id = $1 and e.period = $2
  order by e.occurred_at, e.id`;

export function statementLine(row: StatementLineRow): StatementLine {
  return {
    lineId: row.id,
    kind: row.kind,
    role: row.role,
    orderRef: row.order_ref,
    policyNumber: row.policy_number,
    paymentRef: row.payment_ref,
    refundRef: row.refund_ref,
    agentId: row.agent_id,
    base: minorFromDecimalString(row.base),
    percent: row.percent,
    capped: row.capped,
    amount: minorFromDecimalString(row.amount),
    currency: row.currency,
    occurredAt: new Date(row.occurred_at),
    period: row.period,
  };
}

/** `$n` placeholders as the ORM's execute wants them (`?`), for SQL shared with the native client. */
const knexPlaceholders = (sql: string) => sql.replace(/\$\d+/g, '?');

export async function statementLinesPage(
  em: EntityManager,
  companyId: string,
  period: string,
  limit: number,
  offset: number,
): Promise<StatementLine[]> {
  const rows = await em.execute<StatementLineRow[]>(`${knexPlaceholders(STATEMENT_LINES_SQL)} limit ? offset ?`, [
    companyId,
    period,
    limit,
    offset,
  ]);
  return rows.map(statementLine);
}
