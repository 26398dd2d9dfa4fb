export { recordCommissionEarned, type PaidShares } from './commission-earning';
export { recordCommissionReversal, type SucceededRefund } from './commission-reversal';
export { commissionHandlers, commissionPolicies } from './handlers';
export { commissionLinesOfOrder } from './order-commission';
export { commissionLineWire } from './statement-wire';
