import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { decimalStringFromMinor, type Minor } from '../../../../kernel/money';
import type { GatewayFinalStatus } from '../../rules/payment-attempt';
import { SandboxGatewayPayment } from './entities/sandbox-gateway-payment';
import type { GatewayName } from '../gateway';

/** Reason of the decision a merchant's void writes: the checkout then refuses the payment. */
export const VOIDED_BY_MERCHANT = 'VOIDED_BY_MERCHANT';

export interface SandboxDecision {
  paymentRef: string;
  gateway: GatewayName;
  status: GatewayFinalStatus | 'PENDING';
  reason?: string;
  amount: Minor;
  currency: string;
  instrument?: string;
  /** Whether this decision may replace the gateway's PENDING (only the sandbox helper's may; a void never does). */
  settlesPending?: boolean;
}

/** A ledger row that is the gateway's final word (not PENDING). */
export type FinalSandboxDecision = SandboxGatewayPayment & {
  status: Exclude<SandboxGatewayPayment['status'], 'PENDING'>;
};

export const isFinalDecision = (row: SandboxGatewayPayment | null): row is FinalSandboxDecision =>
  row !== null && row.status !== 'PENDING';

/**
 * Writes the sandbox gateway's one decision for a payment reference, unless it already has one:
 * the checkout's Pay and the merchant's void race through this single conditional insert, so
 * exactly one of them decides (a double-clicked Pay charges once; a void after a capture fails).
 * Returns whether this call decided. A PENDING payment is replaced only by a decision that
 * `settlesPending` (the sandbox helper's), under the same conditional write.
 */
export async function recordSandboxDecision(em: EntityManager, decision: SandboxDecision): Promise<boolean> {
  const prefix = decision.gateway === 'card_gateway' ? 'CG' : 'WG';
  const onConflict = decision.settlesPending
    ? `do update set "status" = excluded."status", "reason" = excluded."reason", "transaction_id" = excluded."transaction_id", "instrument" = excluded."instrument", "decided_at" = excluded."decided_at" where "sandbox_gateway_payment"."status" = 'PENDING'`
    : 'do nothing';
  const rows: unknown[] = await em.getConnection().execute(
    `insert into "sandbox_gateway_payment" ("payment_ref", "gateway", "status", "reason", "amount", "currency", "transaction_id", "instrument", "decided_at")
     values (?, ?, ?, ?, ?, ?, ?, ?, now()) on conflict ("payment_ref") ${onConflict} returning "payment_ref"`,
    [
      decision.paymentRef,
      decision.gateway,
      decision.status,
      decision.reason ?? null,
      decimalStringFromMinor(decision.amount),
      decision.currency,
      `${prefix}-${randomBytes(8).toString('hex').toUpperCase()}`,
      decision.instrument ?? null,
    ],
  );
  return rows.length === 1;
}

export function findSandboxDecision(
  em: EntityManager,
  paymentRef: string,
  gateway?: GatewayName,
): Promise<SandboxGatewayPayment | null> {
  return em.findOne(SandboxGatewayPayment, gateway ? { paymentRef, gateway } : { paymentRef });
}
