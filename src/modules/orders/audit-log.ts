import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from './entities/audit-entry';
import type { Order } from './entities/order';

/** What is done to orders after the sale, by partners, operators or the service; each action is one row of audit_entry. */
export type AuditAction =
  | 'ORDER_CANCELLED' | 'CASH_RECORDED' | 'REFUND_RECORDED' | 'DEPARTURE_CHANGED'
  | 'REFUND_CREATED' | 'REFUND_SUCCEEDED' | 'REFUND_FAILED' | 'REFUND_MANUAL' | 'REFUND_CONFIRMED' | 'REFUND_RETRIED'
  | 'ASSISTANCE_CASE_OPENED' | 'ASSISTANCE_CASE_STATUS_CHANGED';

/**
 * Adds an audit entry to the caller's transaction: it commits with the change it describes, or
 * not at all.
 */
export function recordAudit(tx: EntityManager, entry: { actor: string; action: AuditAction; order: Order; at: Date; details: Record<string, unknown> }): AuditEntry {
  return tx.create(AuditEntry, {
    actor: entry.actor,
    action: entry.action,
    order: entry.order,
    orderRef: entry.order.orderRef,
    at: entry.at,
    details: entry.details,
  });
}

/** An order's audit entries, oldest first. */
export function auditEntriesOf(em: EntityManager, orderId: string): Promise<AuditEntry[]> {
  return em.find(AuditEntry, { order: orderId }, { orderBy: { at: 'asc', id: 'asc' } });
}
