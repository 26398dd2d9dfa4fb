import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentAttempt } from './entities/payment-attempt';
import type { PaymentDeps } from './payment-deps';
import type { ProviderReversalKind } from './rules/payment-attempt';

export type ReversalOutcome = 'REVERSED' | 'PARTIALLY_REVERSED' | 'UNCHANGED';

/**
 * Records what the provider says it gave back of a paid attempt on its own (a refund made in its
 * portal, a reversal), on the attempt locked by lockAttemptForSettlement. A word already recorded
 * changes nothing; a partial reversal may later become full.
 */
export async function recordProviderReversal(
  tx: EntityManager,
  attempt: PaymentAttempt,
  kind: ProviderReversalKind,
  gatewayReference: string | undefined,
  now: Date,
  deps: Pick<PaymentDeps, 'logger' | 'metrics'>,
): Promise<ReversalOutcome> {
  if (attempt.status !== 'SUCCESS' || attempt.providerReversal === 'FULL' || attempt.providerReversal === kind) return 'UNCHANGED';
  attempt.providerReversal = kind;
  attempt.providerReversalAt = now;
  deps.logger.warn({ paymentRef: attempt.paymentRef, gateway: attempt.gateway, kind, gatewayReference }, 'the provider gave money of a paid attempt back');
  await tx.flush();
  return kind === 'FULL' ? 'REVERSED' : 'PARTIALLY_REVERSED';
}
