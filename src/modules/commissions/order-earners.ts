import type { EntityManager } from '@mikro-orm/postgresql';
import { minorFromDecimalString } from '../../kernel/money';
import type { Company } from '../partners/entities/company';
import type { Order } from '../orders/entities/order';
import type { CommissionCompany, OrderEarnerFacts } from './rules/commission-earners';

/** A percent as the database keeps it ('12.50') in basis points (1250): the same digits as paisa. */
export const basisPoints = (percent: string): number => minorFromDecimalString(percent);

const asEarner = (company: Company): CommissionCompany => ({
  id: company.id,
  percentBp: basisPoints(company.commissionPercent),
});

/**
 * Who is on each order as commission sees it, with today's percents: the seller, the registered
 * agencies listed on it, the owners of its promo codes. Loaded in the caller's transaction, so the
 * percents are the ones in force when the order is paid.
 */
export async function earnerFactsOf(tx: EntityManager, orders: Order[]): Promise<Map<string, OrderEarnerFacts>> {
  await tx.populate(orders, [
    'company',
    'travelCompanies.company',
    'companyPromoCode.ownerCompany',
    'agentPromoCode.ownerAgent',
  ]);
  return new Map(
    orders.map((order) => {
      const owner = order.companyPromoCode?.ownerCompany;
      const agent = order.agentPromoCode?.ownerAgent;
      const facts: OrderEarnerFacts = {
        seller: asEarner(order.company),
        directDiscountBp: basisPoints(order.directDiscountPercent),
        listedAgencies: order.travelCompanies.getItems().map((link) => asEarner(link.company)),
        companyCodeOwner: owner ? asEarner(owner) : undefined,
        codeAgent: agent
          ? { id: agent.id, companyId: agent.company.id, percentBp: basisPoints(agent.commissionPercent) }
          : undefined,
      };
      return [order.id, facts];
    }),
  );
}
