export { recordCommissionEarned, type PaidShares } from './commission-earning';
export { recordCommissionReversal, type SucceededRefund } from './commission-reversal';
export { commissionHandlers, commissionPolicies } from './handlers';
export { commissionLinesOfOrder } from './order-commission';
export { commissionLineWire } from './statement-wire';
export { statementsOfPeriod, type CompanyStatement } from './period-statements';
export { statementCsv } from './statement-export';
export { printableStatement, type PrintSettings } from './printable-statement';
export { isPeriod } from './rules/commission-period';
