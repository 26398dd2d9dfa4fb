import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from './entities/audit-entry';
import type { Order } from './entities/order';

/** What is done to orders after the sale, by partners, operators or the service; each action is one row of audit_entry. */
export type AuditAction =
  | 'ORDER_CANCELLED'
  | 'CASH_RECORDED'
  | 'REFUND_RECORDED'
  | 'DEPARTURE_CHANGED'
  | 'COVER_EXTENDED'
  | 'PASSPORT_NAME_ADDED'
  | 'TOP_UP_REFUNDED'
  | 'REFUND_CREATED'
  | 'REFUND_SUCCEEDED'
  | 'REFUND_FAILED'
  | 'REFUND_MANUAL'
  | 'REFUND_CONFIRMED'
  | 'REFUND_RETRIED'
  | 'ASSISTANCE_CASE_OPENED'
  | 'ASSISTANCE_CASE_STATUS_CHANGED'
  | 'CLAIM_FILED'
  | 'CLAIM_STATUS_CHANGED';

/**
 * Adds an audit entry to the caller's transaction: it commits with the change it describes, or
 * not at all.
 */
export function recordAudit(
  tx: EntityManager,
  entry: { actor: string; action: AuditAction; order: Order; at: Date; details: Record<string, unknown> },
): AuditEntry {
  return tx.create(AuditEntry, {
    actor: entry.actor,
    action: entry.action,
    order: entry.order,
    orderRef: entry.order.orderRef,
    at: entry.at,
    details: entry.details,
  });
}

/**
 * The row recordAudit adds, for a use case that writes its rows with one statement of its own
 * (the assistance case's opening).
 */
export function newAuditEntry(entry: {
  actor: string;
  action: AuditAction;
  order: Pick<Order, 'id' | 'orderRef'>;
  at: Date;
  details: Record<string, unknown>;
}): {
  id: string;
  actor: string;
  action: AuditAction;
  order: string;
  orderRef: string;
  at: Date;
  details: Record<string, unknown>;
} {
  return {
    id: randomUUID(),
    actor: entry.actor,
    action: entry.action,
    order: entry.order.id,
    orderRef: entry.order.orderRef,
    at: entry.at,
    details: entry.details,
  };
}

/** An order's audit entries, oldest first. */
export function auditEntriesOf(em: EntityManager, orderId: string): Promise<AuditEntry[]> {
  return em.find(AuditEntry, { order: orderId }, { orderBy: { at: 'asc', id: 'asc' } });
}
