import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../entities/order';
import type { Principal } from './authentication';

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
 * transaction. It must never throw for a rejected code: the order is created either way (SPEC 4,
 * Orders rule 3) and the outcome is reported in `promoApplyResult`.
 *
 * Promo codes are not implemented yet (the promo issue fills this in: look the code up, check the
 * slot binding, reserve a use, set the slot and discount, recompute the total with
 * domain/order-pricing.ts). Until then every code is reported as not applied, and the order is
 * left untouched.
 */
export async function applyPromoAtCreation(
  _em: EntityManager,
  _principal: Principal,
  _order: Order,
  promoCode: string,
): Promise<PromoApplyOutcome> {
  return {
    promoCode,
    applied: false,
    reason: 'PROMO_CODES_UNAVAILABLE',
    message: 'Promo codes cannot be applied yet; the order was created without a promo discount',
  };
}
