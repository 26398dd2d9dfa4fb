export * from './entities/promo-code';
export * from './handlers';
export * from './order-promos';
export * from './promo-at-order-creation';
export * from './promo-code-admin';
export * from './rules/promo-definition';
