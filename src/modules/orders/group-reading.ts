import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../kernel/http/request-scope';
import type { Order } from './entities/order';
import type { OrderGroup } from './entities/order-group';
import { resolveGroup } from './group-lookup';
import { listOrderBook, type OrderBookRow } from './order-book';

/** A group with its orders twice: as entities (for sums and rules) and as the order book lists them. */
export interface GroupReading {
  group: OrderGroup;
  orders: Order[];
  /** In creation (reference) order like `orders`, each an OrderSummary's row. */
  rows: OrderBookRow[];
}

/** The most orders a group holds (a create body takes at most 50), so one page of the book is all of them. */
const GROUP_PAGE = 100;

/**
 * `GET /orders/groups/{groupRef}`'s orders: only the placing company reads a group; to anyone
 * else it is as unknown as a group that does not exist.
 */
export async function readGroup(em: EntityManager, principal: Principal, identifier: string): Promise<GroupReading> {
  const { group, orders } = await resolveGroup(em, principal, identifier, { strangerSees: 'NOT_FOUND' });
  const { rows } = await listOrderBook(em, principal, { groupRef: group.groupRef, size: GROUP_PAGE });
  // A group's orders are created in one instant: their references, not their times, tell their order.
  const position = new Map(orders.map((order, index) => [order.orderRef, index]));
  rows.sort((a, b) => (position.get(a.order_ref) ?? 0) - (position.get(b.order_ref) ?? 0));
  return { group, orders, rows };
}
