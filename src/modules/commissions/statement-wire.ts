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
    base: amountFromMinor(line.base),
    percent: Number(line.percent),
    capped: line.capped,
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
