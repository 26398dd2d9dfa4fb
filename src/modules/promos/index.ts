import { PromoCode } from './entities/promo-code';
export * from './entities/promo-code';
export * from './handlers';
export * from './order-promos';
export * from './promo-at-order-creation';
export * from './promo-code-admin';
export * from './rules/promo-definition';

/** The ORM entities this module owns (the service's list is their union, in src/database.ts). */
export const PROMO_ENTITIES = [PromoCode];
