/**
 * The refunds module's face: only what other modules, the CLI and the composition use. A
 * refund's status is moved only inside this module (refund-life.ts's moveRefund).
 */
export { recordRefund, refundStart } from './refund-record';
export { moveRefund } from './refund-life';
export { refundEventFacts } from './refund-facts';
export { latestRefundFacts } from './sandbox-refund-outcome';
export { refundWire } from './refund-wire';
export { refundHandlers } from './handlers';
export { executeDueRefunds, RefundKick, startRefundJob, type RefundJob } from './refund-executor';
export { confirmRefund, confirmRefundsOfPayment, listRefunds, refundOverview, retryRefund } from './refund-operations';
export { recordPartialReversal } from './partial-reversal';
export { lockShareForRefunds, lockSharesForRefunds, refundsHolding } from './share-room';
export type { RefundStatus } from './rules/refund-life';
export type { RefundPorts, RefundWrites } from './refund-deps';
