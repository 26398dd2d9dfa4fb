import { amountFromMinor } from '../domain/money';
import { successBody } from '../http/envelope';
import {
  applyGroupPromo,
  applyOrderPromo,
  previewGroupPromo,
  previewOrderPromo,
  removeGroupPromo,
  removeOrderPromo,
  type GroupStateView,
  type PromoStateView,
} from '../services/promo';
import { callerOf, type TagHandlers } from './operation';
import type { Schemas } from '../domain/wire';

export const promoHandlers = {
  async previewOrderPromo({ body: { promoCode }, params }, scope) {
    const state = await previewOrderPromo(scope.em, callerOf(scope), params.orderRef, promoCode);
    return { status: 200, body: successBody(promoStateWire(state), 'Promo preview') };
  },

  async applyOrderPromo({ body: { promoCode }, params }, scope) {
    const state = await applyOrderPromo(scope.em, callerOf(scope), params.orderRef, promoCode, scope.services.payments);
    return { status: 200, body: successBody(promoStateWire(state), 'Promo code applied') };
  },

  async removeOrderPromo({ query: { code }, params }, scope) {
    const state = await removeOrderPromo(scope.em, callerOf(scope), params.orderRef, code, scope.services.payments);
    return { status: 200, body: successBody(promoStateWire(state), 'Promo code removed') };
  },

  async previewGroupPromo({ body: { promoCode }, params }, scope) {
    const state = await previewGroupPromo(scope.em, callerOf(scope), params.groupRef, promoCode);
    return { status: 200, body: successBody(groupStateWire(state), 'Promo preview') };
  },

  async applyGroupPromo({ body: { promoCode }, params }, scope) {
    const state = await applyGroupPromo(scope.em, callerOf(scope), params.groupRef, promoCode, scope.services.payments);
    return { status: 200, body: successBody(groupStateWire(state), 'Promo code applied') };
  },

  async removeGroupPromo({ query: { code }, params }, scope) {
    const state = await removeGroupPromo(scope.em, callerOf(scope), params.groupRef, code, scope.services.payments);
    return { status: 200, body: successBody(groupStateWire(state), 'Promo code removed') };
  },
} satisfies TagHandlers;

export function promoStateWire({ order, slots, totals }: PromoStateView): Schemas['PromoState'] {
  return {
    orderRef: order.orderRef,
    companyPromoCode: slots.company?.code ?? null,
    agentPromoCode: slots.agent?.code ?? null,
    binding: { ...slots.binding },
    totalBefore: amountFromMinor(totals.totalBefore),
    discountAmount: amountFromMinor(totals.discountAmount),
    totalAfter: amountFromMinor(totals.totalAfter),
    currency: order.currency,
  };
}

function groupStateWire(state: GroupStateView): Schemas['GroupPromoState'] {
  const sum = (pick: (entry: GroupStateView['entries'][number]) => number) =>
    amountFromMinor(state.entries.reduce((total, entry) => total + pick(entry), 0));
  return {
    groupRef: state.groupRef,
    orders: state.entries.map((entry) => ({ ...promoStateWire(entry), changed: entry.changed, reason: entry.reason })),
    totals: {
      totalBefore: sum((entry) => entry.totals.totalBefore),
      discountAmount: sum((entry) => entry.totals.discountAmount),
      totalAfter: sum((entry) => entry.totals.totalAfter),
      currency: state.currency,
      changedCount: state.entries.filter((entry) => entry.changed).length,
    },
  };
}

/**
 * The six promo operations. A request the spec's validator rejects (blank or missing
 * `promoCode`, a blank `code`) is answered in app.ts's validationFail with the same
 * `Invalid promo code` body as every other rejection, for every operation listed here; the
 * promo rate limit counts the same set.
 */
export const PROMO_OPERATION_IDS: ReadonlySet<string> = new Set(Object.keys(promoHandlers));
