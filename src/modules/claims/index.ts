/** The claims module's face: its handlers, and the claims desk for the operator CLI. */
export { claimHandlers, claimPolicies } from './handlers';
export { registerClaimMetrics } from './claim-metrics';
export { claimQueue, deskClaim, deskMove, type DeskClaim, type DeskDecision } from './desk';
export { billCase } from './case-billing';
export { claimDetailWire } from './claim-wire';
export type { ItemFigures } from './claim-approval';
export { rateUnits } from './rules/assessment';
export { CLAIM_STATUSES } from './rules/claim-life';
export type { Claim } from './entities/claim';
