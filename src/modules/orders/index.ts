import type { PromoAtOrderCreation } from './order-creation';
import type { CancellationPayments, PromoSlotRelease } from './order-cancellation';

/**
 * The orders module's face: only what the composition, the CLI and other modules use (promos
 * builds on the lookups, the order's promo columns and its pricing; payments on lookups, the audit
 * log and the cancellation).
 */
export { orderHandlers, orderPolicies, skippedMemberWire } from './handlers';
export { findOrder, orderReadAccessOf, resolveOrder } from './order-lookup';
export { resolveGroup } from './group-lookup';
export { readGroup, type GroupReading } from './group-reading';
export { orderSummaryWire } from './order-book-wire';
export { orderOverview, type OrderOverview } from './order-overview';
export { groupTotalsWire, orderIdentity } from './order-wire';
export { newAuditEntry, recordAudit } from './audit-log';
export { AUDIT_ENTRY_COLUMNS, auditEntryInsert, auditEntryValues } from './audit-statement';
export {
  expireTopUpExtension,
  expireUnpaidExtension,
  extensionOfTopUp,
  extensionsOfTopUp,
  extensionByKey,
  openAmendmentOf,
  quoteExtension,
  recordExtension,
  settleTopUp,
} from './extension';
export type { OrderAmendment } from './entities/order-amendment';
export { extensionAsk, type ExtensionRefusal } from './rules/extension';
export { quoteGroupExtension } from './group-extension';
export { Order, OrderStatus } from './entities/order';
export { AuditEntry } from './entities/audit-entry';
export {
  cancelByOperator,
  type AnswersRecorded,
  type CancellationPayments,
  type CancellationView,
  type CheckoutAnswers,
  type ClosedAttempt,
  type PromoSlotRelease,
} from './order-cancellation';
export { recordCancellation } from './cancellation-record';
export { markOrderAmended, markOrderPaid, recordPolicyNumber } from './order-payment';
export type { CancellationReason } from './rules/cancellation';
export { cashSettlementRefusal, parseOperatorAmount } from './rules/operator-order-rules';
export { SANDBOX_POLICY_PREFIX, formatReference, isReference } from './rules/order-reference';
export type { PromoApplyOutcome, PromoAtOrderCreation } from './order-creation';
export {
  ORDER_PROMO_POPULATE,
  bindingOfOrder,
  orderPrice,
  pricePartsOf,
  writePromoColumns,
  type PromoColumns,
} from './order-promo-columns';
export { priceOrder, promoBase, type OrderPriceBreakdown, type OrderPriceParts } from './rules/order-pricing';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** The promos module's rules for a create request's `promoCode` (orders cannot import promos, which builds on orders). */
    promoAtOrderCreation: PromoAtOrderCreation;
    /** What cancellation needs of payments (orders cannot import payments, which builds on orders). */
    cancellationPayments: CancellationPayments;
    /** What cancellation needs of promos (orders cannot import promos, which builds on orders). */
    promoSlotRelease: PromoSlotRelease;
  }
}
