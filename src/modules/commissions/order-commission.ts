import type { EntityManager } from '@mikro-orm/postgresql';
import { CommissionEntry } from './entities/commission-entry';
import type { StatementLine } from './statement-rows';

/** The caller's own lines of one order, oldest first: an order's detail never shows another earner's. */
export async function commissionLinesOfOrder(
  em: EntityManager,
  companyId: string,
  order: { id: string; orderRef: string },
): Promise<StatementLine[]> {
  const entries = await em.find(
    CommissionEntry,
    { order: order.id, company: companyId },
    { orderBy: { occurredAt: 'asc', id: 'asc' } },
  );
  return entries.map((entry) => ({
    lineId: entry.id,
    kind: entry.kind,
    role: entry.role,
    orderRef: order.orderRef,
    policyNumber: entry.policyNumber ?? null,
    paymentRef: entry.paymentRef,
    refundRef: entry.refundRef ?? null,
    agentId: entry.agent?.id ?? null,
    base: entry.base,
    percent: entry.percent,
    capped: entry.capped,
    amount: entry.amount,
    currency: entry.currency,
    occurredAt: entry.occurredAt,
    period: entry.period,
  }));
}
