import type { EntityManager } from '@mikro-orm/postgresql';
import {
  knexPlaceholders,
  ORDER_LINES_SQL,
  statementLine,
  type StatementLine,
  type StatementLineRow,
} from './statement-rows';

/** The caller's own lines of one order, oldest first: an order's detail never shows another earner's. */
export async function commissionLinesOfOrder(
  em: EntityManager,
  companyId: string,
  order: { id: string; orderRef: string },
): Promise<StatementLine[]> {
  const rows = await em.execute<StatementLineRow[]>(knexPlaceholders(ORDER_LINES_SQL), [companyId, order.id]);
  return rows.map(statementLine);
}
