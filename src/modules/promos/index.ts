/** The promos module's face: the promo handlers, the promo codes the CLI manages and the rule applied at order creation; only what the composition, the CLI and other modules use. */
export { promoHandlers, promoPolicies } from './handlers';
export { applyPromoAtCreation } from './promo-at-order-creation';
export {
  createPromoCode,
  createSalesAgent,
  deactivatePromoCode,
  deactivateSalesAgent,
  listPromoCodes,
} from './promo-code-admin';
export { type PromoDefinitionInput, parsePromoDefinition } from './rules/promo-definition';
