import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from '../orders/entities/audit-entry';
import type { Order } from '../orders/entities/order';
import type { Amendment } from './rules/certificate-version';

/** The departure changes made after payment, oldest first, from the audit log the date change writes. */
export async function amendmentsOf(em: EntityManager, order: Order, paidAt: Date): Promise<Amendment[]> {
  const entries = await em.find(
    AuditEntry,
    { order: order.id, action: 'DEPARTURE_CHANGED', at: { $gt: paidAt } },
    { orderBy: { at: 'asc' } },
  );
  return entries.map((entry) => {
    const details = entry.details as { previous?: { departureDate?: string }; current?: { departureDate?: string } };
    return {
      at: entry.at,
      departureFrom: details.previous?.departureDate ?? '',
      departureTo: details.current?.departureDate ?? order.departureDate,
    };
  });
}
