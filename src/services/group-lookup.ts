import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { OrderGroup } from '../entities/order-group';
import { forbidden, notFound } from '../http/app-error';
import type { Principal } from './authentication';

/** Finds an order group by its reference for the company that created it: 404 when none, 403 when another company's. */
export async function resolveGroup(
  em: EntityManager,
  principal: Principal,
  groupRef: string,
  options: { lockForUpdate?: boolean } = {},
): Promise<OrderGroup> {
  const group = await em.findOne(OrderGroup, { groupRef: groupRef.trim() }, options.lockForUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!group) throw notFound('Order group not found');
  if (group.company.id !== principal.companyId) throw forbidden('You do not have access to this order group');
  return group;
}
