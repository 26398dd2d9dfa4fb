import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderStatus } from '../orders/entities/order';
import { recordCancellation, type CancellationReason } from '../orders';
import type { PaymentAttempt } from './entities/payment-attempt';
import type { PaymentAttemptOrder } from './entities/payment-attempt-order';
import { Refund } from '../refunds/entities/refund';
import type { PaymentDeps } from './payment-deps';
import { lockSharesForRefunds, moveRefund, recordRefund } from '../refunds';
import { recordPaymentEvents } from '../webhooks';
import type { ProviderReversalKind } from './rules/payment-attempt';
import { reversalPlan } from './rules/payment-watch';
import { moveAttempt, moveShare } from './attempt-life';

export type ReversalOutcome = 'REVERSED' | 'PARTIALLY_REVERSED' | 'UNCHANGED';

/** Who the audit log and the refund records name for what the watch found. */
const ACTOR = 'reversal-watch';

/** Why an order whose payment the provider gave back in full is cancelled. */
export const PAYMENT_REVERSED = 'PAYMENT_REVERSED' satisfies CancellationReason;

/**
 * Records what the provider says it gave back of a paid attempt (locked by
 * lockAttemptForSettlement), in the caller's transaction:
 * - FULL (Khalti `Refunded`, eSewa `FULL_REFUND`): every share of the payment went back. What our
 *   own refund records do not already account for is recorded as a refund SUCCEEDED (cause
 *   PROVIDER_REVERSAL, the provider's reference, not executed by us), and our refunds not made yet
 *   (PENDING, MANUAL, and FAILED ones an operator may have made in the provider's portal since)
 *   are done: the provider gave the money. Each order the payment paid is
 *   cancelled with reason PAYMENT_REVERSED: its policy is void. Every share reads REFUNDED, and
 *   the attempt too (`refundAmount` its whole amount). Webhooks `refund.succeeded` and
 *   `order.cancelled`.
 * - PARTIAL (`Partially Refunded`, `PARTIAL_REFUND`): neither provider says how much went back. When
 *   none of our refunds explains it, it is recorded on the attempt, logged for an operator (who
 *   records the amount: `ops payment partial-reversal`) and told to the partner
 *   (`payment.partially_reversed`); the policy stays (the customer still paid for part of it) and
 *   the watch goes on, in case it becomes full.
 * A word already recorded changes nothing.
 */
export async function recordProviderReversal(
  tx: EntityManager,
  attempt: PaymentAttempt,
  kind: ProviderReversalKind,
  gatewayReference: string | undefined,
  now: Date,
  deps: Pick<PaymentDeps, 'logger' | 'metrics' | 'gateways' | 'refundWrites'>,
): Promise<ReversalOutcome> {
  if (attempt.status !== 'SUCCESS' || attempt.providerReversal === 'FULL' || attempt.providerReversal === kind)
    return 'UNCHANGED';
  // The refund lock of every share (decision 0091): the operator's confirm and the executor wait, or went first.
  await lockSharesForRefunds(
    tx,
    attempt.id,
    attempt.orders.getItems().map((line) => line.order.id),
  );
  // FAILED refunds count too: an operator's portal refund after one is that refund, not a new one.
  const ours = await tx.find(
    Refund,
    { attempt: attempt.id },
    { orderBy: { createdAt: 'asc' }, populate: ['order'], refresh: true },
  );
  const provider =
    attempt.provider ?? deps.gateways.get(attempt.gateway === 'cash' ? 'card_gateway' : attempt.gateway)?.provider;
  const log = { paymentRef: attempt.paymentRef, gateway: attempt.gateway, provider, kind, gatewayReference };

  if (kind === 'PARTIAL') {
    // Our own partial refund (a cancelled order of a group, a fee kept) reads the same at the provider.
    if (ours.some((refund) => refund.status !== 'FAILED')) return 'UNCHANGED';
    attempt.providerReversal = 'PARTIAL';
    attempt.providerReversalAt = now;
    // The partner hears of it too: its customer has part of the money back, and a cancellation is now the operator's to refund.
    await recordPaymentEvents(tx, 'payment.partially_reversed', attempt, {
      at: now,
      reason: 'PARTIALLY_REVERSED_AT_PROVIDER',
    });
    deps.logger.error(
      log,
      'the provider gave part of a paid payment back, without saying how much: an operator must record it',
    );
    deps.metrics?.paymentOutcomes.inc({ gateway: attempt.gateway, outcome: 'PARTIALLY_REVERSED_AT_PROVIDER' });
    return 'PARTIALLY_REVERSED';
  }

  attempt.providerReversal = 'FULL';
  attempt.providerReversalAt = now;
  const lines = attempt.orders.getItems();
  // The provider gave everything back: our refunds not made yet are made (by the provider), each
  // with what its share had left (a FAILED one held none of it meanwhile: decision 0091).
  const given = new Map<string, number>();
  for (const refund of ours.filter((r) => r.status === 'SUCCEEDED'))
    given.set(refund.order.id, (given.get(refund.order.id) ?? 0) + refund.amount);
  // Refunds that hold their part (PENDING, MANUAL) first; a FAILED one gets what they leave.
  const notMade = ours.filter((r) => r.status !== 'SUCCEEDED');
  for (const refund of [
    ...notMade.filter((r) => r.status !== 'FAILED'),
    ...notMade.filter((r) => r.status === 'FAILED'),
  ]) {
    const share = lines.find((line) => line.order.id === refund.order.id)?.amount ?? refund.amount + refund.fee;
    const before = given.get(refund.order.id) ?? 0;
    const amount = Math.min(refund.amount, Math.max(0, share - refund.fee - before));
    given.set(refund.order.id, before + amount);
    await moveRefund(
      tx,
      refund,
      {
        step: 'FOUND_AT_PROVIDER',
        actor: ACTOR,
        at: now,
        providerRefundRef: gatewayReference,
        note: 'the provider reports the payment refunded in full (payment watch)',
        amount,
      },
      deps,
    );
  }
  await tx.flush();
  const plan = reversalPlan(
    lines.map((line) => ({
      orderId: line.order.id,
      share: line.amount,
      settlement: line.settlement ?? null,
      orderCancelled: line.order.status === OrderStatus.Cancelled,
    })),
    ours.map((refund) => ({ orderId: refund.order.id, amount: refund.amount })),
  );
  if (plan.cancel.length === 0 && [...plan.remainder.values()].every((owed) => owed === 0)) {
    // Our own refunds gave all of it back (Khalti reads Refunded after our refund call): nothing is new.
    return 'UNCHANGED';
  }
  const reference = gatewayReference ?? attempt.gatewayTransactionId ?? undefined;
  let recorded = 0;
  for (const line of lines) {
    const owed = plan.remainder.get(line.order.id) ?? 0;
    const refund =
      owed > 0
        ? await recordRefund(
            tx,
            {
              order: line.order,
              attempt,
              cause: 'PROVIDER_REVERSAL',
              amount: owed,
              actor: ACTOR,
              at: now,
              start: 'FOUND_AT_PROVIDER',
              provider,
              providerRefundRef: reference,
              note: `refunded at the provider (${provider ?? attempt.gateway}), found by the payment watch; not executed by us`,
            },
            deps,
          )
        : undefined;
    if (refund) recorded += 1;
    if (plan.cancel.includes(line.order.id)) await cancelForReversal(tx, line, attempt, refund ?? null, now);
    // All of it went back: no share pays an order any more, whoever refunded it.
    moveShare(line, 'REVERSE');
  }
  // The attempt then reads as what it is now: captured, and given back in full. Its refundAmount
  // (money no order kept: late captures, and now the shares the reversal took from their orders)
  // grows by the shares of the orders cancelled here; a share a cancellation refunded stays out of it.
  await moveAttempt(tx, attempt, {
    step: 'REVERSE',
    at: now,
    refundAmount:
      attempt.refundAmount +
      lines.filter((line) => plan.cancel.includes(line.order.id)).reduce((sum, line) => sum + line.amount, 0),
    refundReason: attempt.refundReason ?? PAYMENT_REVERSED,
  });
  deps.logger.warn(
    { ...log, refundsRecorded: recorded, ordersCancelled: plan.cancel.length },
    'the provider gave a paid payment back in full',
  );
  deps.metrics?.paymentOutcomes.inc({ gateway: attempt.gateway, outcome: 'REVERSED_AT_PROVIDER' });
  return recorded > 0 || plan.cancel.length > 0 ? 'REVERSED' : 'UNCHANGED';
}

/** The order the reversed payment paid is cancelled by the one cancellation: its policy number stays with it, void. */
async function cancelForReversal(
  tx: EntityManager,
  line: PaymentAttemptOrder,
  attempt: PaymentAttempt,
  refund: Refund | null,
  now: Date,
): Promise<void> {
  await recordCancellation(
    tx,
    line.order,
    {
      reason: PAYMENT_REVERSED,
      note: `the payment ${attempt.paymentRef} was refunded in full at the provider`,
      actor: ACTOR,
    },
    {
      rule: 'PAYMENT_REVERSED',
      refundAmount: refund?.amount ?? 0,
      cancellationFee: 0,
      refund,
      paymentRef: attempt.paymentRef,
    },
    now,
  );
}
