import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from '../orders/entities/audit-entry';
import type { Order } from '../orders/entities/order';
import type { Amendment } from './rules/certificate-version';

/**
 * The amendments made after payment, oldest first, from the audit log: the departure changes
 * and the applied extensions of the cover (decision record 0099).
 */
export async function amendmentsOf(em: EntityManager, order: Order, paidAt: Date): Promise<Amendment[]> {
  const entries = await em.find(
    AuditEntry,
    { order: order.id, action: { $in: ['DEPARTURE_CHANGED', 'COVER_EXTENDED'] }, at: { $gt: paidAt } },
    { orderBy: { at: 'asc' } },
  );
  return entries.map((entry): Amendment => {
    if (entry.action === 'COVER_EXTENDED') {
      const details = entry.details as {
        previous?: { coverageEndDate?: string };
        current?: { coverageEndDate?: string };
      };
      return {
        at: entry.at,
        coverEndFrom: details.previous?.coverageEndDate ?? '',
        coverEndTo: details.current?.coverageEndDate ?? order.coverageEndDate,
      };
    }
    const details = entry.details as { previous?: { departureDate?: string }; current?: { departureDate?: string } };
    return {
      at: entry.at,
      departureFrom: details.previous?.departureDate ?? '',
      departureTo: details.current?.departureDate ?? order.departureDate,
    };
  });
}
