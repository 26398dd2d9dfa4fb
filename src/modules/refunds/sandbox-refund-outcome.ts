import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { conflict, notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import { Refund } from './entities/refund';
import type { RefundDeps } from './refund-deps';
import { moveRefund, type RefundMove } from './refund-life';
import { lockShareForRefunds } from './share-room';
import { isRefundRef } from './rules/refund-life';
import { refundEventFacts } from './refund-facts';
import type { RefundEventFacts } from '../webhooks';

export type SandboxRefundOutcome = Schemas['SandboxRefundOutcomeRequest']['outcome'];

/** The step the sandbox provider's answer is from where the refund stands (rules/refund-life.ts). */
function moveOf(refund: Refund, outcome: SandboxRefundOutcome, at: Date): RefundMove {
  const actor = 'sandbox-helper';
  if (outcome === 'FAILED')
    return {
      step: 'FAIL',
      actor,
      at,
      provider: 'sandbox',
      why: 'the sandbox provider refused the refund (sandbox helper)',
    };
  const providerRefundRef = `SBX-${refund.refundRef}`;
  // A MANUAL refund waits for someone to give the money back; the provider now reports it back.
  if (refund.status === 'MANUAL')
    return {
      step: 'FOUND_AT_PROVIDER',
      actor,
      at,
      provider: 'sandbox',
      providerRefundRef,
      note: 'refunded at the sandbox provider (sandbox helper)',
    };
  return { step: 'SUCCEED', actor, at, provider: 'sandbox', providerRefundRef };
}

/**
 * POST /sandbox/refunds/{refundRef}/outcome: the sandbox provider answers a refund of the
 * caller's that is not final yet, through the refunds module's one writer (moveRefund: the
 * share's settlement, the commission reversal, the audit entry and refund.succeeded/failed),
 * under the refund's row lock, in one transaction.
 */
export async function answerSandboxRefund(
  em: EntityManager,
  principal: Principal,
  refundRef: string,
  outcome: SandboxRefundOutcome,
  deps: Pick<RefundDeps, 'gateways' | 'refundWrites' | 'metrics'>,
  now = new Date(),
): Promise<Refund> {
  const ref = refundRef.trim().toUpperCase();
  return em.fork().transactional(async (tx) => {
    const found = isRefundRef(ref)
      ? await tx.findOne(Refund, { refundRef: ref, order: { company: principal.companyId } })
      : null;
    if (!found) throw notFound(`Refund ${ref} not found`);
    // Every writer of a refund takes its share's lock first (order row, then share row), then the
    // refund's own row: the same order as the executor, the operator and the watch (record 0091).
    await lockShareForRefunds(tx, { attemptId: found.attempt.id, orderId: found.order.id });
    const refund = await tx.findOneOrFail(Refund, found.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    await tx.populate(refund, ['order', 'attempt']);
    const { attempt } = refund;
    const provider =
      refund.gateway === 'cash'
        ? undefined
        : attempt.provider
          ? deps.gateways.of(refund.gateway, attempt.provider)
          : deps.gateways.get(refund.gateway);
    if (provider?.provider !== 'sandbox')
      throw conflict(
        `Refund ${ref} is made by ${attempt.provider ?? refund.gateway}, not by the sandbox provider`,
      ).coded('SANDBOX_PROVIDER_REQUIRED');
    if (refund.status === 'SUCCEEDED' || refund.status === 'FAILED')
      throw conflict(
        `Refund ${ref} is already ${refund.status}: a refund is decided once. To test the other outcome, cancel another paid order and decide its refund`,
      ).coded('REFUND_ALREADY_FINAL');
    await moveRefund(tx, refund, moveOf(refund, outcome, now), deps);
    await tx.flush();
    return refund;
  });
}

/** An order's latest refund as refund events carry it (POST /sandbox/events), or null when it has none. */
export async function latestRefundFacts(em: EntityManager, orderId: string): Promise<RefundEventFacts | null> {
  const refund = await em.findOne(
    Refund,
    { order: orderId },
    { populate: ['attempt'], orderBy: { createdAt: 'desc' } },
  );
  return refund ? refundEventFacts(refund) : null;
}
