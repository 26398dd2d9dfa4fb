/**
 * The refunds module's face: what other modules, the CLI and the composition use. A refund's
 * status is moved only by this module (moveRefund, and the use cases here that call it).
 */
export { recordRefund, refundStart, type RefundToRecord } from './refund-record';
export { moveRefund } from './refund-life';
export { refundEventFacts } from './refund-facts';
export { refundWire } from './refund-wire';
export { executeDueRefunds, startRefundJob, type RefundJob, type RefundPassSummary } from './refund-executor';
export { confirmRefund, confirmRefundsOfPayment, listRefunds, refundOverview, refundsAwaitingOperator, retryRefund } from './refund-operations';
export type { RefundDeps, RefundGateway } from './refund-deps';
export type { RefundCause, RefundStatus } from './rules/refund-life';
