/** The promos module's face: the promo handlers, the promo codes the CLI manages, the demo partners' codes, the rule applied at order creation and the codes given back by a cancellation; only what the composition, the CLI and other modules use. */
export { promoHandlers, promoPolicies } from './handlers';
export { applyPromoAtCreation } from './promo-at-order-creation';
export { releasePromoSlots } from './promo-slot-store';
export { activeDemoPromoCodes, deactivateDemoPromoCodes, seedDemoPromoCodes } from './demo-promo-codes';
export { createPromoCode, deactivatePromoCode, listPromoCodes } from './promo-code-admin';
export { type PromoDefinitionInput, parsePromoDefinition } from './rules/promo-definition';
