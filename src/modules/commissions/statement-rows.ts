import type { EntityManager } from '@mikro-orm/postgresql';
import { minorFromDecimalString, type Minor } from '../../kernel/money';
import type { CommissionEntryKind } from './entities/commission-entry';
import type { CommissionRole } from './rules/commission-earners';
import { effectivePercent, partOfBase } from './rules/statement-figures';

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
  /** The agent of an `AGENT` line as its company knows it, and the agent code applied on the order. */
  agentName: string | null;
  agentCode: string | null;
  base: Minor;
  percent: string;
  /** The cap the order was held to (percent of the base). */
  capPercent: string;
  capped: boolean;
  /** What the line's percent became under the cap (`percent` when not capped): base × it, rounded down, is the amount. */
  effectivePercent: string;
  /** REVERSED: what the refund gave back of the paid share, and that part of the base (what the amount is taken back on). */
  reversedShare: Minor | null;
  reversedBase: Minor | null;
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
  agent_name: string | null;
  agent_code: string | null;
  base: string;
  share: string;
  percent: string;
  cap_percent: string;
  asked_percent: string | null;
  refunded: string | null;
  capped: boolean;
  amount: string;
  currency: string;
  period: string;
}

/**
 * One company's lines of one period, oldest first (the statement index's order). `$1` company, `$2` period.
 * A capped line's percents asked by every earner of its share (the EARNED lines of the order and
 * payment, one per earner) give its effective percent; read only for capped lines, by the index
 * that keeps a share earned once.
 */
const linesOf = (
  where: string,
) => `select e.id, e.occurred_at, e.kind, e.role, o.order_ref, e.policy_number, e.payment_ref, e.refund_ref, e.agent_id,
  a.name as agent_name, case when e.agent_id is not null then p.code end as agent_code,
  e.base::text as base, e.share::text as share, e.percent::text as percent, e.cap_percent::text as cap_percent,
  case when e.capped then (select sum(x.percent) from commission_entry x
    where x.payment_ref = e.payment_ref and x.order_id = e.order_id and x.kind = 'EARNED')::text end as asked_percent,
  e.refunded::text as refunded, e.capped, e.amount::text as amount, e.currency, e.period
  from commission_entry e join insurance_order o on o.id = e.order_id
  left join sales_agent a on a.id = e.agent_id left join promo_code p on p.id = o.agent_promo_code_id
  where ${where}
  order by e.occurred_at, e.id`;

export const STATEMENT_LINES_SQL = linesOf('e.company_id = $1 and e.period = $2');

/** One company's lines of one order (`$1` company, `$2` order id). */
export const ORDER_LINES_SQL = linesOf('e.company_id = $1 and e.order_id = $2');

export function statementLine(row: StatementLineRow): StatementLine {
  const base = minorFromDecimalString(row.base);
  const refunded = row.refunded === null ? null : minorFromDecimalString(row.refunded);
  return {
    lineId: row.id,
    kind: row.kind,
    role: row.role,
    orderRef: row.order_ref,
    policyNumber: row.policy_number,
    paymentRef: row.payment_ref,
    refundRef: row.refund_ref,
    agentId: row.agent_id,
    agentName: row.agent_name,
    agentCode: row.agent_code,
    base,
    percent: row.percent,
    capPercent: row.cap_percent,
    capped: row.capped,
    effectivePercent: effectivePercent(row.percent, row.cap_percent, row.asked_percent),
    reversedShare: refunded,
    reversedBase: refunded === null ? null : partOfBase(base, minorFromDecimalString(row.share), refunded),
    amount: minorFromDecimalString(row.amount),
    currency: row.currency,
    occurredAt: new Date(row.occurred_at),
    period: row.period,
  };
}

/** `$n` placeholders as the ORM's execute wants them (`?`), for SQL shared with the native client. */
export const knexPlaceholders = (sql: string) => sql.replace(/\$\d+/g, '?');

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
