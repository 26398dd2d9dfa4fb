import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from '../orders/entities/audit-entry';
import type { Order } from '../orders/entities/order';
import type { Amendment, CoverWindow } from './rules/certificate-version';

interface OrderDates {
  departureDate?: string;
  coverageStartDate?: string;
  coverageEndDate?: string;
}

/**
 * The amendments made after payment, oldest first, from the audit log: today the departure
 * changes. Each says what changed in words and the coverage window before and after, so that the
 * certificate lists them whatever their kind (decision record 0102).
 */
export async function amendmentsOf(em: EntityManager, order: Order, paidAt: Date): Promise<Amendment[]> {
  const entries = await em.find(
    AuditEntry,
    { order: order.id, action: 'DEPARTURE_CHANGED', at: { $gt: paidAt } },
    { orderBy: { at: 'asc' } },
  );
  return entries.map((entry) => {
    const details = entry.details as { previous?: OrderDates; current?: OrderDates };
    const from = details.previous?.departureDate ?? '';
    const to = details.current?.departureDate ?? order.departureDate;
    return {
      at: entry.at,
      change: `departure moved from ${from} to ${to}`,
      windowBefore: windowOf(details.previous),
      windowAfter: windowOf(details.current),
    };
  });
}

function windowOf(dates: OrderDates | undefined): CoverWindow | undefined {
  return dates?.coverageStartDate && dates.coverageEndDate
    ? { start: dates.coverageStartDate, end: dates.coverageEndDate }
    : undefined;
}
