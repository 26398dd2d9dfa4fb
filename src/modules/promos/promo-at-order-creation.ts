import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../orders/entities/order';
import type { Principal } from '../../kernel/http/request-scope';
import type { PromoApplyOutcome, PromoAtOrderCreation } from '../orders';
import { applyPromoOnNewOrder, INVALID_PROMO_CODE } from './order-promos';

/**
 * Applies the `promoCode` of a create request to the freshly created order, inside the create
 * transaction, with the rules of applyOrderPromo (slot, binding, one use reserved atomically,
 * total recomputed). It never throws for a rejected code: the order is created either way
 * (PromoApplyResult.yaml in spec/), and a rejection, whatever its cause, reads the same.
 */
export const applyPromoAtCreation: PromoAtOrderCreation = async (
  em: EntityManager,
  _principal: Principal,
  order: Order,
  promoCode: string,
): Promise<PromoApplyOutcome> => {
  const applied = await applyPromoOnNewOrder(em, order, promoCode);
  return applied
    ? { promoCode, applied: true, reason: null, message: 'Promo code applied' }
    : { promoCode, applied: false, reason: 'INVALID_PROMO_CODE', message: INVALID_PROMO_CODE };
};
