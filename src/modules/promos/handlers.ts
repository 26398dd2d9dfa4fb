import { amountFromMinor } from '../../kernel/money';
import { successBody } from '../../kernel/http/envelope';
import {
  applyGroupPromo,
  applyOrderPromo,
  previewGroupPromo,
  previewOrderPromo,
  removeGroupPromo,
  removeOrderPromo,
  invalidPromoCode,
  type GroupStateView,
  type PromoStateView,
} from './order-promos';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import type { OperationPolicies, OperationPolicy } from '../../kernel/http/operation-policy';

export const promoHandlers = {
  previewOrderPromo: ({ body, params }, scope) =>
    orderAnswer(previewOrderPromo(scope.em, callerOf(scope), params.orderRef, body.promoCode), 'Promo preview'),
  applyOrderPromo: ({ body, params }, scope) =>
    orderAnswer(
      applyOrderPromo(scope.em, callerOf(scope), params.orderRef, body.promoCode, scope.services.payments),
      'Promo code applied',
    ),
  removeOrderPromo: ({ query, params }, scope) =>
    orderAnswer(
      removeOrderPromo(scope.em, callerOf(scope), params.orderRef, query.code, scope.services.payments),
      'Promo code removed',
    ),
  previewGroupPromo: ({ body, params }, scope) =>
    groupAnswer(previewGroupPromo(scope.em, callerOf(scope), params.groupRef, body.promoCode), 'Promo preview'),
  applyGroupPromo: ({ body, params }, scope) =>
    groupAnswer(
      applyGroupPromo(scope.em, callerOf(scope), params.groupRef, body.promoCode, scope.services.payments),
      'Promo code applied',
    ),
  removeGroupPromo: ({ query, params }, scope) =>
    groupAnswer(
      removeGroupPromo(scope.em, callerOf(scope), params.groupRef, query.code, scope.services.payments),
      'Promo code removed',
    ),
} satisfies TagHandlers;

/** Every promo operation on an order answers 200 with the order's promo state after it. */
async function orderAnswer(change: Promise<PromoStateView>, message: string) {
  return { status: 200 as const, body: successBody(promoStateWire(await change), message) };
}

/** Every promo operation on a group answers 200 with the group's promo state after it. */
async function groupAnswer(change: Promise<GroupStateView>, message: string) {
  return { status: 200 as const, body: successBody(groupStateWire(await change), message) };
}

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
 * The six promo operations share one policy. A malformed request (a blank or missing `promoCode`,
 * a blank `code`) is answered with the same `Invalid promo code` body as every other rejection, so
 * the answer tells nothing about valid codes; promo requests count against one per-company limit,
 * which bounds probing; and each outcome is counted (every rejection is the same 400 by design, so
 * the status is the outcome).
 */
const promoPolicy: OperationPolicy = {
  rateLimits: [{ counter: 'promo', limit: (limits) => limits.promoPerCompany }],
  outcomes: {
    name: 'promo_operations_total',
    help: 'Promo previews, applies and removals, by operationId and outcome (accepted or rejected)',
  },
  malformedRequest: invalidPromoCode,
};

export const promoPolicies = {
  previewOrderPromo: promoPolicy,
  applyOrderPromo: promoPolicy,
  removeOrderPromo: promoPolicy,
  previewGroupPromo: promoPolicy,
  applyGroupPromo: promoPolicy,
  removeGroupPromo: promoPolicy,
} satisfies OperationPolicies;
