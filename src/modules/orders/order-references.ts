import type { EntityManager } from '@mikro-orm/postgresql';
import { kathmanduToday } from '../../kernel/business-date';
import { formatReference } from './rules/order-reference';
import { present } from '../../kernel/narrow';

export interface OrderReferences {
  orderRef: string;
  orderNumber: string;
}

/**
 * Draws `count` order references from the PostgreSQL sequences in one round trip. A sequence
 * hands out each number once whatever the number of server processes and never waits on another
 * transaction; a rolled-back order leaves a gap, which is fine.
 */
export async function allocateOrderReferences(
  em: EntityManager,
  count: number,
  now = new Date(),
): Promise<OrderReferences[]> {
  const year = kathmanduToday(now).slice(0, 4);
  // em.execute, not em.getConnection().execute: only the former runs inside the caller's transaction.
  const rows = await em.execute<Array<{ ref: string; num: string }>>(
    `select nextval('order_ref_seq')::text as ref, nextval('order_number_seq')::text as num from generate_series(1, ?)`,
    [count],
  );
  return rows.map((row) => ({
    orderRef: formatReference('ORD', year, row.ref),
    orderNumber: formatReference('ORDN', year, row.num),
  }));
}

export async function allocateGroupRef(em: EntityManager, now = new Date()): Promise<string> {
  const year = kathmanduToday(now).slice(0, 4);
  const [row] = await em.execute<Array<{ ref: string }>>(`select nextval('order_group_ref_seq')::text as ref`);
  return formatReference('GRP', year, present(row, 'the nextval row').ref);
}
