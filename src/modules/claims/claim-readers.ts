import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../orders';

/**
 * The companies that hear of an order's claims and may read them: the placing company and each
 * registered agency listed on the order (the rule of assistance cases, decision record 0105), the placing company first.
 */
export async function claimReaders(em: EntityManager, order: Order): Promise<string[]> {
  if (!order.travelCompanies.isInitialized()) await em.populate(order, ['travelCompanies']);
  return claimReadersOf(
    order.company.id,
    order.travelCompanies.getItems().map((link) => link.company.id),
  );
}

/** The same readers from the placing company's id and the listed agencies' ids (read by the filing's one statement). */
export function claimReadersOf(placingCompanyId: string, agencyIds: readonly string[]): string[] {
  return [...new Set([placingCompanyId, ...agencyIds])];
}
