import { percentOf, type Minor } from '../../../kernel/money';
import { priceOrder, promoBase, type OrderPriceBreakdown, type OrderPriceParts } from '../../orders';

/**
 * Promo slots and binding of an order (the contract's PromoState and promo paths), as pure rules.
 *
 * An order has two independent slots, one for a sales-company code and one for a sales-agent
 * code; a code's owner decides its slot. The binding is one value: the first code applied to an
 * unbound order binds it to that code's owner, and it stays so until that code leaves the order,
 * which rolls it back to NONE. Codes applied while the order is bound never rebind it. Hence a
 * COMPANY binding always matches the code in the company slot, an AGENT binding the agent slot.
 *
 * Binding table (spec/components/schemas/PromoBinding.yaml):
 *
 * | binding        | company code accepted | agent code accepted |
 * |----------------|-----------------------|---------------------|
 * | NONE           | any company's         | any agent's         |
 * | COMPANY A      | A's only              | any agent's         |
 * | AGENT X        | any company's         | X's only            |
 */
export type PromoSlot = 'COMPANY' | 'AGENT';

export interface PromoBinding {
  type: 'NONE' | PromoSlot;
  ownerId: string | null;
  ownerName: string | null;
}

export const UNBOUND: PromoBinding = Object.freeze({ type: 'NONE', ownerId: null, ownerName: null });

/** A code as the slot rules see it. */
export interface SlotCode {
  id: string;
  code: string;
  slot: PromoSlot;
  /** The owning sales company (company code) or sales agent (agent code). */
  ownerId: string;
  ownerName: string;
  discount: { percent: number } | { amount: Minor };
}

/** What is needed to decide whether a code may take a new use today. */
export interface CodeUsability {
  active: boolean;
  ownerActive: boolean;
  validFrom: string | null;
  validTo: string | null;
  usageLimit: number | null;
  usedCount: number;
}

export interface PromoSlots {
  company: SlotCode | null;
  agent: SlotCode | null;
  binding: PromoBinding;
}

export const EMPTY_SLOTS: PromoSlots = Object.freeze({ company: null, agent: null, binding: UNBOUND });

/** Active, owner active, inside its Kathmandu validity window (both ends inclusive). */
export function codeIsCurrent(code: CodeUsability, today: string): boolean {
  return (
    code.active &&
    code.ownerActive &&
    (code.validFrom === null || code.validFrom <= today) &&
    (code.validTo === null || today <= code.validTo)
  );
}

/** Uses still free; `Infinity` without a limit. */
export function remainingUses(code: Pick<CodeUsability, 'usageLimit' | 'usedCount'>): number {
  return code.usageLimit === null ? Infinity : Math.max(0, code.usageLimit - code.usedCount);
}

export function bindingAllows(binding: PromoBinding, code: Pick<SlotCode, 'slot' | 'ownerId'>): boolean {
  if (binding.type === 'NONE' || binding.type !== code.slot) return true;
  return binding.ownerId === code.ownerId;
}

export function slotOf(slots: PromoSlots, slot: PromoSlot): SlotCode | null {
  return slot === 'COMPANY' ? slots.company : slots.agent;
}

function withSlot(slots: PromoSlots, slot: PromoSlot, code: SlotCode | null): PromoSlots {
  return slot === 'COMPANY' ? { ...slots, company: code } : { ...slots, agent: code };
}

/** What applying a code does to the slots and to the code usage counts. */
export interface SlotChange {
  slots: PromoSlots;
  changed: boolean;
  /** Code that takes a new use (null when the slot already held it). */
  reserve: string | null;
  /** Code whose use is given back (the one replaced or removed). */
  release: string[];
}

/**
 * Fills or replaces the slot of the code's type; the other slot is untouched. Re-applying the code
 * already in the slot takes no new use. The caller has checked binding and usability.
 */
export function fillSlot(slots: PromoSlots, code: SlotCode): SlotChange {
  const held = slotOf(slots, code.slot);
  const same = held?.id === code.id;
  const binding: PromoBinding =
    slots.binding.type === 'NONE'
      ? { type: code.slot, ownerId: code.ownerId, ownerName: code.ownerName }
      : slots.binding;
  const next = { ...withSlot(slots, code.slot, code), binding };
  return {
    slots: next,
    changed: !same || !sameBinding(binding, slots.binding),
    reserve: same ? null : code.id,
    release: held && !same ? [held.id] : [],
  };
}

/**
 * Clears the slot the given code occupies, or both slots without a code. A code that is not on
 * the order changes nothing. Clearing the slot whose code created the binding rolls it back.
 */
export function clearSlots(slots: PromoSlots, code?: string): SlotChange {
  const wanted = code === undefined ? null : normalizePromoCode(code);
  const cleared: PromoSlot[] = (['COMPANY', 'AGENT'] as const).filter((slot) => {
    const held = slotOf(slots, slot);
    return held !== null && (wanted === null || held.code === wanted);
  });
  let next = slots;
  for (const slot of cleared) next = withSlot(next, slot, null);
  if (cleared.some((slot) => slot === slots.binding.type)) next = { ...next, binding: UNBOUND };
  return {
    slots: next,
    changed: cleared.length > 0,
    reserve: null,
    release: cleared.flatMap((slot) => slotOf(slots, slot)?.id ?? []),
  };
}

function sameBinding(a: PromoBinding, b: PromoBinding): boolean {
  return a.type === b.type && a.ownerId === b.ownerId;
}

/** Codes are case-insensitive and stored upper-case; surrounding spaces are not part of a code. */
export function normalizePromoCode(input: string): string {
  return input.trim().toUpperCase();
}

/** The discount a code gives on an order: a percentage of package plus kept devices, or a fixed amount. */
export function codeDiscount(code: SlotCode | null, base: Minor): Minor {
  if (!code) return 0;
  return 'percent' in code.discount ? percentOf(base, code.discount.percent) : code.discount.amount;
}

/** Totals of the promo state of spec/components/schemas/PromoState.yaml, in minor units. */
export interface PromoTotals {
  /** The total without the promo discounts. */
  totalBefore: Minor;
  /** Company plus agent promo discount as priced (each capped so the total never goes below zero). */
  discountAmount: Minor;
  /** What the customer pays: the order's total. */
  totalAfter: Minor;
  price: OrderPriceBreakdown;
}

/**
 * Prices an order carrying the given slots with orders' one pricing rule (orders/rules/order-pricing.ts):
 * company discount first, then agent, then the direct discount on what remains.
 */
export function projectTotals(
  parts: Omit<OrderPriceParts, 'companyPromoDiscount' | 'agentPromoDiscount'>,
  slots: PromoSlots,
): PromoTotals {
  const base = promoBase(parts);
  const price = priceOrder({
    ...parts,
    companyPromoDiscount: codeDiscount(slots.company, base),
    agentPromoDiscount: codeDiscount(slots.agent, base),
  });
  const discountAmount = price.companyPromoDiscount + price.agentPromoDiscount;
  return { totalBefore: price.totalAmount + discountAmount, discountAmount, totalAfter: price.totalAmount, price };
}

/** Why a code cannot go on an order. For a single order every one of them is the same 400. */
export type ApplyRejection =
  /** The order is paid, closed, completed or cancelled. */
  | 'ORDER_NOT_PENDING'
  /** Unknown, inactive, dated out, owner inactive, or no use left. */
  | 'CODE_UNUSABLE'
  /** The order's binding does not accept this code's owner. */
  | 'INVALID_FOR_ORDER';

export type ApplyDecision = { ok: true; change: SlotChange } | { ok: false; reason: ApplyRejection };

/**
 * Decides applying `code` (null when no such code exists) to an order. `usesLeft` is what the
 * code can still give out (remainingUses, less what this operation already took): a code already
 * in its slot needs no new use, so re-applying it never fails for want of one.
 */
export function decideApply(
  order: { payable: boolean; slots: PromoSlots },
  code: (SlotCode & CodeUsability) | null,
  today: string,
  usesLeft: number,
): ApplyDecision {
  if (!order.payable) return { ok: false, reason: 'ORDER_NOT_PENDING' };
  if (!code || !codeIsCurrent(code, today)) return { ok: false, reason: 'CODE_UNUSABLE' };
  if (!bindingAllows(order.slots.binding, code)) return { ok: false, reason: 'INVALID_FOR_ORDER' };
  const change = fillSlot(order.slots, code);
  if (change.reserve !== null && usesLeft < 1) return { ok: false, reason: 'CODE_UNUSABLE' };
  return { ok: true, change };
}
