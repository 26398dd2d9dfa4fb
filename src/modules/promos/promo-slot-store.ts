import type { EntityManager } from '@mikro-orm/postgresql';
import {
  OrderStatus,
  bindingOfOrder,
  pricePartsOf,
  writePromoColumns,
  type PromoColumns,
  type PromoSlotRelease,
} from '../orders';
import { PromoBindingType, type Order } from '../orders/entities/order';
import {
  clearSlots,
  normalizePromoCode,
  projectTotals,
  type CodeUsability,
  type PromoSlots,
  type PromoTotals,
  type SlotCode,
} from './rules/promo-slots';
import { PromoCode } from './entities/promo-code';
import { isRecord } from '../../kernel/narrow';

/**
 * Persistence side of promo codes: finding a code, locking and counting its uses, and reading an
 * order's slots and deciding what it carries (orders writes its own columns, writePromoColumns).
 * The rules themselves live in rules/promo-slots.ts.
 */

const BINDING_TYPES = {
  NONE: PromoBindingType.None,
  COMPANY: PromoBindingType.Company,
  AGENT: PromoBindingType.Agent,
} as const;

/** A code found by what a caller typed; always exactly one query, whether or not it exists. */
export async function findPromoCode(em: EntityManager, input: string): Promise<PromoCode | null> {
  return em.findOne(PromoCode, { code: normalizePromoCode(input) }, { populate: ['ownerCompany', 'ownerAgent'] });
}

/**
 * Locks the given codes' rows in id order (so two transactions touching the same codes never
 * deadlock) and returns their current use counts. Always one statement, even for no codes.
 */
export async function lockPromoCodes(
  em: EntityManager,
  ids: Array<string | null | undefined>,
): Promise<Map<string, number>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))].sort();
  const rows = await em.execute<Array<{ id: string; used_count: number }>>(
    `select id, used_count from promo_code where id = any(?::uuid[]) order by id for update`,
    [`{${wanted.join(',')}}`],
  );
  return new Map(rows.map((row) => [row.id, Number(row.used_count)]));
}

/**
 * Reserves `count` uses of a code: one conditional UPDATE, so the limit holds whatever the number
 * of transactions and server processes (the check constraint on used_count is the last word).
 * Returns false, changing nothing, when the uses are not there.
 */
export async function reserveUses(em: EntityManager, codeId: string, count: number): Promise<boolean> {
  if (count === 0) return true;
  const updated = await em.execute(
    `update promo_code set used_count = used_count + ? where id = ? and (usage_limit is null or used_count + ? <= usage_limit)`,
    [count, codeId, count],
    'run',
  );
  return affectedRows(updated) === 1;
}

/** Gives back uses of a code: removal or replacement of the slot that held it. */
export async function releaseUses(em: EntityManager, codeId: string, count: number): Promise<void> {
  if (count === 0) return;
  const updated = await em.execute(
    `update promo_code set used_count = used_count - ? where id = ? and used_count >= ?`,
    [count, codeId, count],
    'run',
  );
  // Every held slot was counted when it was filled; a miss means the counts were edited by hand.
  if (affectedRows(updated) !== 1) throw new Error(`promo code ${codeId} has fewer uses than slots holding it`);
}

function affectedRows(result: unknown): number {
  if (!isRecord(result)) return 0;
  const count = result.affectedRows ?? result.rowCount;
  return typeof count === 'number' ? count : 0;
}

/** A code as the slot rules see it; its owner must be loaded. */
export function slotCodeOf(code: PromoCode): SlotCode & CodeUsability {
  const owner = code.ownerCompany ?? code.ownerAgent;
  if (!owner) throw new Error(`promo code ${code.id} has no owner`);
  return {
    id: code.id,
    code: code.code,
    slot: code.ownerCompany ? 'COMPANY' : 'AGENT',
    ownerId: owner.id,
    ownerName: owner.name,
    discount:
      code.discountPercent !== undefined && code.discountPercent !== null
        ? { percent: Number(code.discountPercent) }
        : { amount: code.discountAmount ?? 0 },
    active: code.active,
    ownerActive: owner.active,
    validFrom: code.validFrom ?? null,
    validTo: code.validTo ?? null,
    usageLimit: code.usageLimit ?? null,
    usedCount: code.usedCount,
  };
}

/** Pending and unpaid: the only state in which an order's promo codes may change (spec/paths/orders_orderRef_promo.yaml). */
export function isPromoChangeable(order: Order): boolean {
  return order.status === OrderStatus.Pending && !order.paidAt;
}

/** The order's slots and binding; ORDER_PROMO_POPULATE must be loaded. */
export function slotsOfOrder(order: Order): PromoSlots {
  return {
    company: order.companyPromoCode ? slotCodeOf(order.companyPromoCode) : null,
    agent: order.agentPromoCode ? slotCodeOf(order.agentPromoCode) : null,
    binding: bindingOfOrder(order),
  };
}

/**
 * Puts new slots, binding and the recomputed price on the order through orders' writer (flushed
 * by the caller's transaction). A code in the new slots is either already on the order or
 * `applied`; a new binding can only come from `applied`, whose owner is loaded.
 */
export function writeSlots(order: Order, slots: PromoSlots, totals: PromoTotals, applied?: PromoCode): void {
  const entityFor = (held: PromoCode | undefined, id: string | undefined): PromoCode | undefined => {
    if (id === undefined) return undefined;
    if (held?.id === id) return held;
    if (applied?.id === id) return applied;
    throw new Error(`promo code ${id} is neither on order ${order.orderRef} nor being applied`);
  };
  const columns: PromoColumns = {
    companyPromoCode: entityFor(order.companyPromoCode, slots.company?.id),
    agentPromoCode: entityFor(order.agentPromoCode, slots.agent?.id),
    price: totals.price,
  };
  const current = bindingOfOrder(order);
  if (slots.binding.type !== current.type || slots.binding.ownerId !== current.ownerId) {
    const binding = {
      type: BINDING_TYPES[slots.binding.type],
      company: slots.binding.type === 'COMPANY' ? applied?.ownerCompany : undefined,
      agent: slots.binding.type === 'AGENT' ? applied?.ownerAgent : undefined,
    };
    if (slots.binding.type !== 'NONE' && !binding.company && !binding.agent) {
      throw new Error(
        `order ${order.orderRef} cannot be bound to ${slots.binding.ownerId}: not the applied code's owner`,
      );
    }
    columns.binding = binding;
  }
  writePromoColumns(order, columns);
}

/**
 * An unpaid order's promo slots are emptied and each code's use given back (as a promo removal
 * would); answers the codes released. Orders' cancellation calls it through its port
 * (PromoSlotRelease, wired by the composition).
 */
export const releasePromoSlots: PromoSlotRelease = async (tx, order) => {
  const slots = slotsOfOrder(order);
  const change = clearSlots(slots);
  const released = [slots.company?.code, slots.agent?.code].filter((code): code is string => !!code);
  if (change.changed) {
    await lockPromoCodes(tx, change.release);
    for (const codeId of change.release) await releaseUses(tx, codeId, 1);
    writeSlots(order, change.slots, projectTotals(pricePartsOf(order), change.slots));
  }
  return released;
};
