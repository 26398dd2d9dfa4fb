import type { EntityManager } from '@mikro-orm/postgresql';
import { IsolationLevel } from '@mikro-orm/core';
import type { AuditEntry } from './entities/audit-entry';
import type { Order } from './entities/order';
import { PaymentAttempt } from '../payments/entities/payment-attempt';
import { auditEntriesOf } from './audit-log';
import { findOrder } from './order-lookup';
import { ORDER_PROMO_POPULATE } from './order-promo-columns';

export interface OrderOverview {
  order: Order;
  /** Every attempt that covers the order, oldest first, with its lines (the order's share among them). */
  attempts: PaymentAttempt[];
  auditEntries: AuditEntry[];
}

/** `ops order show`: an order with everything an operator needs to judge it, read in one snapshot. */
export async function orderOverview(em: EntityManager, identifier: string): Promise<OrderOverview> {
  return em.transactional(
    async (tx) => {
      const order = await findOrder(tx, identifier);
      await tx.populate(order, [...ORDER_PROMO_POPULATE, 'company']);
      const attempts = await tx.find(
        PaymentAttempt,
        { orders: { order: order.id } },
        { populate: ['orders'], orderBy: { createdAt: 'asc' } },
      );
      const auditEntries = await auditEntriesOf(tx, order.id);
      return { order, attempts, auditEntries };
    },
    { readOnly: true, isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}
