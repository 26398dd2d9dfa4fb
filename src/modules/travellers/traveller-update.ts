import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { markOrderAmended, Order, OrderStatus, recordAudit } from '../orders';
import { Traveller } from './entities/traveller';

/** The statuses whose certificate is issued and in force: the ones a new name re-versions. */
const INSURED = [OrderStatus.Paid, OrderStatus.Completed, OrderStatus.Closed];

/**
 * PATCH /travellers/{travellerId}: the name as in the passport, added or corrected after
 * registration (decision record 0103). Each certificate the traveller is insured on gets a new
 * version in the same transaction: an audit entry the certificate lists among its amendments
 * (certificates/amendments.ts) and the order's amendment time, so the paper that carried the
 * transliteration, or nothing, is superseded by one with the passport's spelling. The same name
 * again changes nothing.
 */
export async function updateTravellerPassportName(
  em: EntityManager,
  principal: Principal,
  travellerId: string,
  nameAsInPassport: string,
  now = new Date(),
): Promise<{ traveller: Traveller; amendedOrders: string[] }> {
  return em.transactional(async (tx) => {
    const traveller = await tx.findOne(
      Traveller,
      { id: travellerId, company: principal.companyId },
      { populate: ['avatarDocument', 'passportDocument', 'signatureDocument', 'visaDocument'] },
    );
    // Another company's traveller is not named to the caller: the same 404 as an unknown one.
    if (!traveller) throw notFound(`Traveller ${travellerId} not found`);
    const name = nameAsInPassport.toUpperCase();
    const previous = traveller.nameAsInPassport ?? null;
    if (previous === name) return { traveller, amendedOrders: [] };
    traveller.nameAsInPassport = name;
    const orders = await tx.find(
      Order,
      { traveller: traveller.id, status: { $in: INSURED } },
      { orderBy: { createdAt: 'asc' } },
    );
    for (const order of orders) {
      markOrderAmended(order, now);
      recordAudit(tx, {
        actor: `partner-api:${principal.companyId}`,
        action: 'PASSPORT_NAME_ADDED',
        order,
        at: now,
        details: { travellerId: traveller.id, corrected: previous !== null, policyNumber: order.policyNumber ?? null },
      });
    }
    await tx.flush();
    return { traveller, amendedOrders: orders.map((order) => order.orderRef) };
  });
}
