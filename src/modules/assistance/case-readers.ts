import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../orders/entities/order';

/**
 * The companies that may read an order's assistance cases: the placing company and each
 * registered agency listed on the order (decision record 0105; custom agencies have
 * no access). The one rule of case visibility, for the API and the events alike.
 */
export async function caseReaders(em: EntityManager, order: Order): Promise<string[]> {
  if (!order.travelCompanies.isInitialized()) await em.populate(order, ['travelCompanies']);
  return readersOf(
    order.company.id,
    order.travelCompanies.getItems().map((link) => link.company.id),
  );
}

/** The placing company, then each listed agency once. */
export function readersOf(placingCompanyId: string, agencyIds: readonly string[]): string[] {
  return [...new Set([placingCompanyId, ...agencyIds])];
}
