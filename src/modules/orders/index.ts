import type { PromoAtOrderCreation } from './order-creation';
import type { CancellationPayments } from './order-cancellation';

/**
 * The orders module's face: only what the composition, the CLI and other modules use (promos
 * builds on the promo slots; payments on lookups, the audit log and the cancellation).
 */
export { orderHandlers, orderPolicies } from './handlers';
export { findOrder, resolveOrder } from './order-lookup';
export { resolveGroup } from './group-lookup';
export { readGroup, type GroupReading } from './group-reading';
export { orderSummaryWire } from './order-book-wire';
export { orderOverview, type OrderOverview } from './order-overview';
export { groupTotalsWire, orderIdentity } from './order-wire';
export { newAuditEntry, recordAudit } from './audit-log';
export { AUDIT_ENTRY_COLUMNS, auditEntryInsert, auditEntryValues } from './audit-statement';
export {
  amendmentOpenError,
  expireTopUpExtension,
  expireUnpaidExtension,
  extensionOfTopUp,
  extensionByKey,
  openAmendmentOf,
  quoteExtension,
  recordExtension,
  settleTopUp,
} from './extension';
export type { OrderAmendment } from './entities/order-amendment';
export { extensionAsk } from './rules/extension';
export { Order, OrderStatus } from './entities/order';
export { AuditEntry } from './entities/audit-entry';
export { cancelOrderAsOperator, type CancellationPayments, type CancellationView } from './order-cancellation';
export { cancelOrderInTransaction } from './cancellation-record';
export { markOrderAmended, markOrderPaid, recordPolicyNumber } from './order-payment';
export type { CancellationReason } from './rules/cancellation';
export { cashSettlementRefusal, parseOperatorAmount } from './rules/operator-order-rules';
export { SANDBOX_POLICY_PREFIX, formatReference, isReference } from './rules/order-reference';
export type { PromoApplyOutcome, PromoAtOrderCreation } from './order-creation';
export {
  ORDER_PROMO_POPULATE,
  bindingOfOrder,
  findPromoCode,
  isPromoChangeable,
  lockPromoCodes,
  orderPrice,
  pricePartsOf,
  releaseUses,
  reserveUses,
  slotCodeOf,
  slotsOfOrder,
  writeSlots,
} from './promo-slot-store';
export {
  clearSlots,
  codeIsCurrent,
  decideApply,
  normalizePromoCode,
  projectTotals,
  remainingUses,
  slotOf,
  type PromoSlots,
  type PromoTotals,
  type SlotChange,
} from './rules/promo-slots';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** The promos module's rules for a create request's `promoCode` (orders cannot import promos, which builds on orders). */
    promoAtOrderCreation: PromoAtOrderCreation;
    /** What cancellation needs of payments (orders cannot import payments, which builds on orders). */
    cancellationPayments: CancellationPayments;
  }
}
