import { amountFromMinor } from '../../kernel/money';
import type { Schemas } from '../../kernel/http/wire';
import type { StatementLine } from './statement-rows';
import type { PeriodTotals } from './statement-totals';

export function commissionLineWire(line: StatementLine): Schemas['CommissionLine'] {
  return {
    lineId: line.lineId,
    kind: line.kind,
    role: line.role,
    orderRef: line.orderRef,
    policyNumber: line.policyNumber,
    paymentRef: line.paymentRef,
    refundRef: line.refundRef,
    agentId: line.agentId,
    agentName: line.agentName,
    agentCode: line.agentCode,
    base: amountFromMinor(line.base),
    percent: Number(line.percent),
    capPercent: Number(line.capPercent),
    capped: line.capped,
    effectivePercent: Number(line.effectivePercent),
    reversedShare: line.reversedShare === null ? null : amountFromMinor(line.reversedShare),
    reversedBase: line.reversedBase === null ? null : amountFromMinor(line.reversedBase),
    amount: amountFromMinor(line.amount),
    currency: line.currency,
    occurredAt: line.occurredAt.toISOString(),
    period: line.period,
  };
}

export function periodSummaryWire(totals: PeriodTotals, currency: string): Schemas['CommissionPeriodSummary'] {
  return {
    period: totals.period,
    status: totals.status,
    currency,
    earned: amountFromMinor(totals.earned),
    reversed: amountFromMinor(totals.reversed),
    net: amountFromMinor(totals.net),
    lineCount: totals.lineCount,
  };
}
