import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { Order } from './entities/order';
import { isReference, isUuid } from './rules/order-reference';
import { invalid, forbidden, notFound } from '../../kernel/errors';
import { PaymentAttempt } from '../payments/entities/payment-attempt';
import type { Principal } from '../../kernel/http/request-scope';
import type { ORDER_PROMO_POPULATE } from './order-promo-columns';

/** How the caller relates to an order it may see. */
export type OrderAccess = 'OWNER' | 'TRAVEL_COMPANY';

/**
 * What the caller means to do: READ the order (detail, payment-status, certificate) or ACT on it
 * (promo preview, apply, remove; pay). Every caller of resolveOrder says which.
 */
export type OrderIntent = 'READ' | 'ACT';

export interface OrderLookupOptions {
  intent: OrderIntent;
  /**
   * Another company's order answers as unknown (404), not 403: for every read the contract does not
   * give a 403 (the certificate, the cancellation preview), so that sequential references do not
   * tell a stranger which exist (issue 40). The contract's own 403s (detail, payment-status, promo)
   * stay as the contract has them.
   */
  strangerSeesNothing?: boolean;
  lockForUpdate?: boolean;
  populate?: readonly OrderRelation[];
}

export interface ResolvedOrder {
  order: Order;
  access: OrderAccess;
}

/** Everything an order's detail response shows, loaded in one go. */
export const ORDER_DETAIL_POPULATE = [
  'traveller',
  'ctg',
  'route',
  'group',
  'travelCompanies.company',
  'companyPromoCode',
  'agentPromoCode',
  'bindingCompany',
  'bindingAgent',
] as const;

/** The relations an order's readers load: the detail response's, and the promo slots' owners. */
export type OrderRelation = (typeof ORDER_DETAIL_POPULATE)[number] | (typeof ORDER_PROMO_POPULATE)[number];

/**
 * Finds an order by order reference (`ORD-`), order number (`ORDN-`) or order UUID, and checks
 * the caller may see it: 404 when nothing matches, 403 when it belongs to someone else.
 *
 * The one access rule of every order operation (decision record 0105): the placing
 * company (OWNER) reads and acts; a registered agency listed in the order's travel companies
 * (TRAVEL_COMPANY) may READ it (the contract grants listed agencies access) and gets 403 on
 * anything that would ACT on it (a company changes only orders it placed);
 * anybody else gets 403, and an identifier that matches nothing 404.
 *
 * A gateway payment reference is an opaque key: it is looked up among payment attempts, never
 * parsed, and resolves to the order it pays for. A group payment reference covers several orders
 * and is a 400 here, it names no single order; but only to a caller who may see those orders:
 * to anybody else it is the 403 of every order of someone else (issue 30: the 400 told strangers
 * which references were real group payments).
 *
 * `populate` defaults to what the detail response shows. Pay and payment-status read only the
 * order row: each relation loaded is one more query and more entities for the flush to check,
 * which under load is most of their cost.
 */
export async function resolveOrder(
  em: EntityManager,
  principal: Principal,
  identifier: string,
  options: OrderLookupOptions,
): Promise<ResolvedOrder> {
  const order = await findOrder(em, identifier, { ...options, caller: principal });
  const access = await accessOf(
    em,
    order,
    principal,
    options.strangerSeesNothing ? () => notFound(`Order ${identifier} not found`) : undefined,
  );
  if (access === 'TRAVEL_COMPANY' && options.intent === 'ACT') {
    throw forbidden(
      `Only the company that placed order ${order.orderRef} can change or pay it; your company is listed on it and may read it (GET /orders/${order.orderRef}): ask the placing company to do this`,
    );
  }
  return { order, access };
}

/**
 * The lookup of resolveOrder without the caller check, for the operator command line, which
 * acts for no company: every identifier form, 404 when nothing matches, detail relations loaded
 * unless `populate` names fewer.
 */
export async function findOrder(
  em: EntityManager,
  identifier: string,
  options: {
    lockForUpdate?: boolean;
    populate?: readonly OrderRelation[];
    caller?: Principal;
    strangerSeesNothing?: boolean;
  } = {},
): Promise<Order> {
  const key = identifier.trim();
  const where =
    orderFilter(key) ?? (await paymentReferenceFilter(em, key, options.caller, options.strangerSeesNothing === true));
  // The row lock (when asked) is taken on the order alone: FOR UPDATE cannot cross the outer joins of populate.
  const order = where
    ? await em.findOne(Order, where, options.lockForUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})
    : null;
  if (!order) throw notFound(`Order ${identifier} not found`);
  const populate = options.populate ?? ORDER_DETAIL_POPULATE;
  if (populate.length > 0) await em.populate(order, populate);
  return order;
}

function orderFilter(identifier: string): FilterQuery<Order> | null {
  if (isReference('ORD', identifier)) return { orderRef: identifier };
  if (isReference('ORDN', identifier)) return { orderNumber: identifier };
  if (isUuid(identifier)) return { id: identifier.toLowerCase() };
  return null;
}

async function paymentReferenceFilter(
  em: EntityManager,
  paymentRef: string,
  caller: Principal | undefined,
  strangerSeesNothing: boolean,
): Promise<FilterQuery<Order> | null> {
  const attempt = await em.findOne(PaymentAttempt, { paymentRef }, { populate: ['orders'] });
  if (!attempt) return null;
  if (attempt.scope === 'GROUP') {
    // Access before classification: what the reference is, is told only to whoever may see its orders.
    if (caller && !(await maySeeGroupAttempt(em, attempt, caller))) {
      throw strangerSeesNothing
        ? notFound(`Order ${paymentRef} not found`)
        : forbidden('You do not have access to this order');
    }
    throw invalid(`${paymentRef} is a group payment reference; query each order by its own reference`);
  }
  const [line] = attempt.orders.getItems();
  return line ? { id: line.order.id } : null;
}

/** Whether `caller` placed the group's orders or is a listed agency of one of them (the order access rule). */
async function maySeeGroupAttempt(em: EntityManager, attempt: PaymentAttempt, caller: Principal): Promise<boolean> {
  if (attempt.company.id === caller.companyId) return true;
  await em.populate(attempt, ['orders.order.travelCompanies']);
  return attempt.orders
    .getItems()
    .some((line) => line.order.travelCompanies.getItems().some((link) => link.company.id === caller.companyId));
}

async function accessOf(
  em: EntityManager,
  order: Order,
  principal: Principal,
  strangerError?: () => Error,
): Promise<OrderAccess> {
  if (order.company.id === principal.companyId) return 'OWNER';
  // Only a caller other than the placing company needs the order's agencies.
  if (!order.travelCompanies.isInitialized()) await em.populate(order, ['travelCompanies']);
  if (order.travelCompanies.getItems().some((link) => link.company.id === principal.companyId)) return 'TRAVEL_COMPANY';
  throw strangerError?.() ?? forbidden(NO_ACCESS);
}

const NO_ACCESS = 'You do not have access to this order';

/**
 * resolveOrder's access rule for READ over an order read as plain columns, for a use case that
 * locks and reads the order in its own statements (filing a claim, decision record 0107): the
 * placing company is the OWNER, a listed agency a TRAVEL_COMPANY, anybody else 403.
 */
export function orderReadAccessOf(
  order: { companyId: string; listedCompanyIds: readonly string[] },
  principal: Principal,
): OrderAccess {
  if (order.companyId === principal.companyId) return 'OWNER';
  if (order.listedCompanyIds.includes(principal.companyId)) return 'TRAVEL_COMPANY';
  throw forbidden(NO_ACCESS);
}
