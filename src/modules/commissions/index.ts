export { recordCommissionEarned, type PaidShares } from './commission-earning';
export { recordCommissionReversal, type SucceededRefund } from './commission-reversal';
