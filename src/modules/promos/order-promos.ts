import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderStatus, resolveGroup, resolveOrder, ORDER_PROMO_POPULATE, pricePartsOf } from '../orders';
import {
  clearSlots,
  codeIsCurrent,
  decideApply,
  projectTotals,
  remainingUses,
  slotOf,
  type PromoSlots,
  type PromoTotals,
  type SlotChange,
} from './rules/promo-slots';
import {
  findPromoCode,
  isPromoChangeable,
  lockPromoCodes,
  releaseUses,
  reserveUses,
  slotCodeOf,
  slotsOfOrder,
  writeSlots,
} from './promo-slot-store';
import type { Order } from '../orders/entities/order';
import { invalid } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import { assertNoOpenAttempts, withOpenAttemptsClosed } from '../payments';
import type { PaymentDeps } from '../payments';
import { businessToday } from '../../kernel/business-today';
import { kathmanduToday } from '../../kernel/business-date';
import type { PromoCode } from './entities/promo-code';

/**
 * The day a code's validity window is judged on: the caller's test clock only for a code its own
 * company (or one of its agents) owns; another company's code on the real date, so a sandbox clock
 * set in the past or ahead cannot revive an expired code, or open an early one, of someone else
 * (decision record 0093).
 */
function codeDay(code: PromoCode | null | undefined, callerCompanyId: string): string {
  const owner = code?.ownerCompany?.id ?? code?.ownerAgent?.company.id;
  return owner === callerCompanyId ? businessToday() : kathmanduToday();
}

/**
 * Promo use cases (spec/paths/orders_orderRef_promo.yaml): preview, apply and remove, on one order or on a group, plus
 * the non-fatal apply at order creation. Each runs in one transaction; a rejection rolls it back,
 * so the order and the code's use count stay exactly as they were.
 *
 * Every single-order rejection is the same 400 `Invalid promo code`, and every path to it makes
 * the same queries (order with row lock, code lookup, code row locks), so neither the body nor
 * the work done tells an unknown code from an expired, inactive, exhausted or wrongly bound one.
 */
export const INVALID_PROMO_CODE = 'Invalid promo code';
export const invalidPromoCode = () => invalid(INVALID_PROMO_CODE).coded('PROMO_CODE_INVALID');

/** The promo state of one order (PromoState of the spec), in domain terms. */
export interface PromoStateView {
  order: Order;
  slots: PromoSlots;
  totals: PromoTotals;
}

/** Why a group entry did not change (GroupPromoEntry.reason of the spec). */
export type GroupEntryReason = 'ORDER_NOT_PENDING' | 'INVALID_FOR_ORDER' | 'NOT_APPLIED' | 'ALREADY_APPLIED';

export interface GroupEntryView extends PromoStateView {
  changed: boolean;
  reason: GroupEntryReason | null;
}

export interface GroupStateView {
  groupRef: string;
  currency: string;
  entries: GroupEntryView[];
}

const stateOf = (order: Order, slots: PromoSlots = slotsOfOrder(order)): PromoStateView => ({
  order,
  slots,
  totals: projectTotals(pricePartsOf(order), slots),
});

// ---------------------------------------------------------------------------------------------
// One order

/**
 * A paid, closed or cancelled order keeps its discount (spec/paths/orders_orderRef_promo.yaml). Said before any code is looked
 * at, so the answer depends on the order alone and tells nothing about the code.
 */
function assertPromoChangeable(order: Order): void {
  if (!isPromoChangeable(order)) {
    throw invalid(
      `Order ${order.orderRef} is ${order.status}: its promo codes can change only while it is pending and unpaid`,
    ).coded(order.status === OrderStatus.Cancelled ? 'ORDER_ALREADY_CANCELLED' : 'ORDER_NOT_PENDING');
  }
}

/** What the order would carry with the code; writes nothing and reserves no use. */
export async function previewOrderPromo(
  em: EntityManager,
  principal: Principal,
  orderRef: string,
  input: string,
): Promise<PromoStateView> {
  return em.transactional(
    async (tx) => {
      const { order } = await resolveOrder(tx, principal, orderRef, { intent: 'ACT' });
      await tx.populate(order, [...ORDER_PROMO_POPULATE]);
      assertPromoChangeable(order);
      const code = await findPromoCode(tx, input);
      const facts = code && slotCodeOf(code);
      const decision = decideApply(
        orderFacts(order),
        facts,
        codeDay(code, principal.companyId),
        facts ? remainingUses(facts) : 0,
      );
      if (!decision.ok) throw invalidPromoCode();
      return stateOf(order, decision.change.slots);
    },
    { readOnly: true },
  );
}

/**
 * Puts the code in its slot, reserving one use atomically, and recomputes the total. A checkout
 * opened at the old total is put to its gateway first (repricing).
 */
export async function applyOrderPromo(
  em: EntityManager,
  principal: Principal,
  orderRef: string,
  input: string,
  deps: PaymentDeps,
): Promise<PromoStateView> {
  return repricing(em, deps, async (tx) => {
    const { order } = await resolveOrder(tx, principal, orderRef, { intent: 'ACT', lockForUpdate: true });
    await tx.populate(order, [...ORDER_PROMO_POPULATE]);
    assertPromoChangeable(order);
    const outcome = await applyToLockedOrder(tx, order, input);
    if (!outcome) throw invalidPromoCode();
    await assertNoOpenAttempts(tx, [order.id]);
    await tx.flush();
    return outcome;
  });
}

/** Clears the slot of `code` (or both); a code not on the order changes nothing. */
export async function removeOrderPromo(
  em: EntityManager,
  principal: Principal,
  orderRef: string,
  code: string | undefined,
  deps: PaymentDeps,
): Promise<PromoStateView> {
  return repricing(em, deps, async (tx) => {
    const { order } = await resolveOrder(tx, principal, orderRef, { intent: 'ACT', lockForUpdate: true });
    await tx.populate(order, [...ORDER_PROMO_POPULATE]);
    assertPromoChangeable(order);
    const slots = slotsOfOrder(order);
    const change = clearSlots(slots, code);
    if (!change.changed) return stateOf(order, slots);
    await assertNoOpenAttempts(tx, [order.id]);
    await lockPromoCodes(tx, change.release);
    await settleUses(tx, [change]);
    const state = stateOf(order, change.slots);
    writeSlots(order, change.slots, state.totals);
    await tx.flush();
    return state;
  });
}

/**
 * The `promoCode` of POST /orders, inside the creation transaction on the freshly created
 * order. Never throws for a rejected code: the order is created either way (spec/components/schemas/
 * PromoApplyResult.yaml) and the outcome goes into `promoApplyResult`.
 */
export async function applyPromoOnNewOrder(em: EntityManager, order: Order, input: string): Promise<boolean> {
  return (await applyToLockedOrder(em, order, input)) !== null;
}

/** Apply on an order whose row the transaction holds; null (nothing written) when rejected. */
async function applyToLockedOrder(tx: EntityManager, order: Order, input: string): Promise<PromoStateView | null> {
  const code = await findPromoCode(tx, input);
  const uses = await lockPromoCodes(tx, [code?.id, order.companyPromoCode?.id, order.agentPromoCode?.id]);
  const usesLeft = code
    ? remainingUses({ usageLimit: code.usageLimit ?? null, usedCount: uses.get(code.id) ?? code.usedCount })
    : 0;
  const decision = decideApply(orderFacts(order), code && slotCodeOf(code), codeDay(code, order.company.id), usesLeft);
  if (!decision.ok || !code) return null;
  if (!(await settleUses(tx, [decision.change]))) return null;
  const state = stateOf(order, decision.change.slots);
  writeSlots(order, decision.change.slots, state.totals, code);
  return state;
}

// ---------------------------------------------------------------------------------------------
// Groups: one code, every order judged on its own

/** Projected state of every order of the group; writes nothing. */
export async function previewGroupPromo(
  em: EntityManager,
  principal: Principal,
  groupRef: string,
  input: string,
): Promise<GroupStateView> {
  return em.transactional((tx) => groupApply(tx, principal, groupRef, input, false), { readOnly: true });
}

/** Applies the code to every order that can take it; the others report why not. */
export async function applyGroupPromo(
  em: EntityManager,
  principal: Principal,
  groupRef: string,
  input: string,
  deps: PaymentDeps,
): Promise<GroupStateView> {
  return repricing(em, deps, (tx) => groupApply(tx, principal, groupRef, input, true));
}

async function groupApply(
  tx: EntityManager,
  principal: Principal,
  groupRef: string,
  input: string,
  write: boolean,
): Promise<GroupStateView> {
  const { group, orders } = await resolveGroup(tx, principal, groupRef, {
    lockForUpdate: write,
    populate: ORDER_PROMO_POPULATE,
  });
  const code = await findPromoCode(tx, input);
  const held = orders.flatMap((order) => [order.companyPromoCode?.id, order.agentPromoCode?.id]);
  const uses = write ? await lockPromoCodes(tx, [code?.id, ...held]) : new Map<string, number>();
  const today = codeDay(code, principal.companyId);
  const facts = code && slotCodeOf(code);
  let usesLeft = code
    ? remainingUses({ usageLimit: code.usageLimit ?? null, usedCount: uses.get(code.id) ?? code.usedCount })
    : 0;
  const anyHolds = !!code && orders.some((order) => slotOf(slotsOfOrder(order), facts!.slot)?.id === code.id);
  // A code unusable in itself is a 400 for the whole group, exactly as on one order.
  if (!code || !facts || !codeIsCurrent(facts, today) || (usesLeft < 1 && !anyHolds)) throw invalidPromoCode();

  const entries: GroupEntryView[] = [];
  const changes: Array<{ order: Order; change: SlotChange; state: PromoStateView }> = [];
  for (const order of orders) {
    const decision = decideApply(orderFacts(order), facts, today, usesLeft);
    if (!decision.ok) {
      const reason = decision.reason === 'ORDER_NOT_PENDING' ? 'ORDER_NOT_PENDING' : 'INVALID_FOR_ORDER';
      entries.push({ ...stateOf(order), changed: false, reason });
      continue;
    }
    if (decision.change.reserve) usesLeft -= 1;
    if (!decision.change.changed) {
      entries.push({ ...stateOf(order), changed: false, reason: 'ALREADY_APPLIED' });
      continue;
    }
    const state = stateOf(order, decision.change.slots);
    changes.push({ order, change: decision.change, state });
    entries.push({ ...state, changed: true, reason: null });
  }
  if (write) {
    await assertNoOpenAttempts(
      tx,
      changes.map(({ order }) => order.id),
    );
    // The locks make this succeed; were it ever short, nothing of the group is written.
    if (
      !(await settleUses(
        tx,
        changes.map(({ change }) => change),
      ))
    )
      throw invalidPromoCode();
    for (const { order, change, state } of changes) writeSlots(order, change.slots, state.totals, code);
    await tx.flush();
  }
  return { groupRef: group.groupRef, currency: group.currency, entries };
}

/** Removes the code (or every code) from every pending order of the group that carries it. */
export async function removeGroupPromo(
  em: EntityManager,
  principal: Principal,
  groupRef: string,
  code: string | undefined,
  deps: PaymentDeps,
): Promise<GroupStateView> {
  return repricing(em, deps, async (tx) => {
    const { group, orders } = await resolveGroup(tx, principal, groupRef, {
      lockForUpdate: true,
      populate: ORDER_PROMO_POPULATE,
    });
    const entries: GroupEntryView[] = [];
    const changes: Array<{ order: Order; change: SlotChange; state: PromoStateView }> = [];
    for (const order of orders) {
      if (!isPromoChangeable(order)) {
        entries.push({ ...stateOf(order), changed: false, reason: 'ORDER_NOT_PENDING' });
        continue;
      }
      const change = clearSlots(slotsOfOrder(order), code);
      if (!change.changed) {
        entries.push({ ...stateOf(order), changed: false, reason: 'NOT_APPLIED' });
        continue;
      }
      const state = stateOf(order, change.slots);
      changes.push({ order, change, state });
      entries.push({ ...state, changed: true, reason: null });
    }
    await assertNoOpenAttempts(
      tx,
      changes.map(({ order }) => order.id),
    );
    await lockPromoCodes(
      tx,
      changes.flatMap(({ change }) => change.release),
    );
    await settleUses(
      tx,
      changes.map(({ change }) => change),
    );
    for (const { order, change, state } of changes) writeSlots(order, change.slots, state.totals);
    await tx.flush();
    return { groupRef: group.groupRef, currency: group.currency, entries };
  });
}

// ---------------------------------------------------------------------------------------------

/**
 * Runs a promo change in its own transaction, as often as withOpenAttemptsClosed needs: a checkout
 * opened at the old total is settled (the customer had paid: the order is PAID and the change
 * refused) or closed, so the partner starts a new attempt for the new total.
 */
function repricing<T>(em: EntityManager, deps: PaymentDeps, change: (tx: EntityManager) => Promise<T>): Promise<T> {
  return withOpenAttemptsClosed(em, deps, 'ORDER_REPRICED', () => em.fork().transactional(change));
}

function orderFacts(order: Order) {
  return { payable: isPromoChangeable(order), slots: slotsOfOrder(order) };
}

/**
 * Books the use counts of slot changes: reservations first (each one conditional UPDATE, which
 * may refuse), then releases. False when a reservation was refused; the caller then rolls back.
 */
async function settleUses(tx: EntityManager, changes: SlotChange[]): Promise<boolean> {
  const tally = (pick: (change: SlotChange) => string[]) => {
    const counts = new Map<string, number>();
    for (const change of changes) for (const id of pick(change)) counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts;
  };
  for (const [id, count] of tally((change) => (change.reserve ? [change.reserve] : []))) {
    if (!(await reserveUses(tx, id, count))) return false;
  }
  for (const [id, count] of tally((change) => change.release)) await releaseUses(tx, id, count);
  return true;
}
