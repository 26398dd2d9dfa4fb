import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../orders/entities/order';
import type { Principal } from '../auth';
import { applyPromoOnNewOrder, INVALID_PROMO_CODE } from './order-promos';

/** Outcome of the `promoCode` sent with POST /orders (spec: PromoApplyResult). */
export interface PromoApplyOutcome {
  promoCode: string;
  applied: boolean;
  /** Machine-readable reason when not applied, null when applied. */
  reason: string | null;
  message: string;
}

/**
 * Applies the `promoCode` of a create request to the freshly created order, inside the create
 * transaction, with the rules of applyOrderPromo (slot, binding, one use reserved atomically,
 * total recomputed). It never throws for a rejected code: the order is created either way
 * (SPEC 4, Orders rule 3), and a rejection, whatever its cause, reads the same.
 */
export async function applyPromoAtCreation(em: EntityManager, _principal: Principal, order: Order, promoCode: string): Promise<PromoApplyOutcome> {
  const applied = await applyPromoOnNewOrder(em, order, promoCode);
  return applied
    ? { promoCode, applied: true, reason: null, message: 'Promo code applied' }
    : { promoCode, applied: false, reason: 'INVALID_PROMO_CODE', message: INVALID_PROMO_CODE };
}
