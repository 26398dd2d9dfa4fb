export { assistanceHandlers, assistancePolicies } from './handlers';
export { registerAssistanceMetrics } from './assistance-metrics';
export { deskCase, deskMove, deskQueue, type DeskCase } from './desk';
export { guaranteeWire } from './case-wire';
export type { AssistanceCase } from './entities/assistance-case';
export { CASE_STATUSES } from './rules/case-status';
