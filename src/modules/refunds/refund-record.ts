import type { EntityManager } from '@mikro-orm/postgresql';
import type { Minor } from '../../kernel/money';
import { kathmanduToday } from '../../kernel/business-date';
import { present } from '../../kernel/narrow';
import type { Order } from '../orders/entities/order';
import type { PaymentAttempt, PaymentMethod } from '../payments/entities/payment-attempt';
import { PaymentAttemptOrder } from '../payments/entities/payment-attempt-order';
import type { Refund } from './entities/refund';
import type { RefundGateways, RefundPorts } from './refund-deps';
import { countAfterCommit, moveRefund, openRefund } from './refund-life';
import { shareLeft } from './share-room';
import { formatRefundRef, refundSplitProblem, type RefundCause } from './rules/refund-life';

/** What a caller knows when money becomes owed back (or was found already given back). */
export interface RefundToRecord {
  order: Order;
  /** The payment whose share goes back. */
  attempt: PaymentAttempt;
  cause: RefundCause;
  /** What goes back to the customer, in minor units. */
  amount: Minor;
  /** What is kept (a cancellation fee); 0 when absent. */
  fee?: Minor;
  /** `api:<companyId>`, `operator-cli:<user>`, `reversal-watch` ... */
  actor: string;
  at?: Date;
  /**
   * How it starts: `EXECUTE` (the executor refunds it through the provider after commit), `MANUAL`
   * (the provider has no refund API; an operator refunds and confirms), or `FOUND_AT_PROVIDER`
   * (the provider already gave the money back: a reversal the watch found).
   */
  start: 'EXECUTE' | 'MANUAL' | 'FOUND_AT_PROVIDER';
  /** Why a MANUAL refund is the operator's (the default: the provider has no refund API, or cash). */
  why?: string;
  provider?: string;
  providerRefundRef?: string;
  note?: string;
}

/**
 * Writes a refund record into the caller's transaction (it commits with what made the money owed,
 * or not at all): a `RFD-<year>-<seq>` reference from its sequence, the order's share of the
 * attempt marked REFUND_PENDING (by payments' writer, `ports.refundWrites`), and its first step. A refund of nothing (a fee of the whole
 * share) is SUCCEEDED at once, with no provider call. A PENDING refund is made by the executor
 * after commit (the caller's kick makes that immediate).
 */
export async function recordRefund(tx: EntityManager, input: RefundToRecord, ports: RefundPorts): Promise<Refund> {
  const at = input.at ?? new Date();
  const fee = input.fee ?? 0;
  const share = await tx.findOne(PaymentAttemptOrder, { attempt: input.attempt.id, order: input.order.id });
  // Decision 0091: a refund fits in what the share's other refunds not FAILED left of it (the caller holds the share's refund lock).
  const left = share ? await shareLeft(tx, { attemptId: input.attempt.id, orderId: input.order.id }) : null;
  const problem = refundSplitProblem(left ?? input.attempt.amount, input.amount, fee);
  if (problem) throw new Error(`refund of ${input.order.orderRef}: ${problem}`);
  const refund = openRefund(
    tx,
    {
      refundRef: await allocateRefundRef(tx, at),
      order: input.order,
      attempt: input.attempt,
      cause: input.cause,
      amount: input.amount,
      fee,
      actor: input.actor,
      at,
      provider: input.provider,
      providerRefundRef: input.providerRefundRef,
      note: input.note,
    },
    ports,
  );
  // A reversal found at the provider leaves the share as it is: a partial one keeps its order paid, a full one settles every share itself.
  if (share && input.cause !== 'PROVIDER_REVERSAL') await ports.refundWrites.owe(tx, input.attempt, input.order, at);
  const step = firstStep(input);
  if (step === 'FOUND_AT_PROVIDER')
    await moveRefund(
      tx,
      refund,
      {
        step,
        actor: input.actor,
        at,
        provider: input.provider,
        providerRefundRef: input.providerRefundRef,
      },
      ports,
    );
  if (step === 'NOTHING_TO_SEND')
    await moveRefund(
      tx,
      refund,
      {
        step: 'SUCCEED',
        actor: input.actor,
        at,
        note: 'nothing to give back: the fee, or refunds before this one, took the whole share',
      },
      ports,
    );
  if (step === 'MANUAL') {
    const why =
      input.why ??
      (input.attempt.gateway === 'cash'
        ? 'cash is given back by the operator'
        : 'the provider has no refund API: refund in its portal, then confirm');
    await moveRefund(tx, refund, { step: 'NEED_OPERATOR', actor: input.actor, at, why }, ports);
  }
  // Born PENDING and left so for the executor: counted here; every other first step counted by moveRefund.
  if (refund.status === 'PENDING') countAfterCommit(tx, ports, refund, 'PENDING');
  return refund;
}

function firstStep(input: RefundToRecord): 'FOUND_AT_PROVIDER' | 'NOTHING_TO_SEND' | 'MANUAL' | 'EXECUTE' {
  if (input.start === 'FOUND_AT_PROVIDER') return 'FOUND_AT_PROVIDER';
  if (input.amount === 0) return 'NOTHING_TO_SEND';
  if (input.start === 'MANUAL' || input.attempt.gateway === 'cash') return 'MANUAL';
  return 'EXECUTE';
}

/**
 * How a new refund starts: executed where the gateway's provider refunds through an API, MANUAL
 * where it cannot (eSewa, the sandbox wallet) and for cash. A gateway no provider serves right
 * now starts PENDING: the executor decides once one does.
 */
export function refundStart(
  gateways: RefundGateways,
  attempt: { gateway: PaymentMethod; provider?: string | null },
): 'EXECUTE' | 'MANUAL' {
  if (attempt.gateway === 'cash') return 'MANUAL';
  // The provider that took the payment decides, not the one that takes new payments today.
  const gateway = attempt.provider ? gateways.of(attempt.gateway, attempt.provider) : gateways.get(attempt.gateway);
  return gateway?.refunds === 'MANUAL' ? 'MANUAL' : 'EXECUTE';
}

async function allocateRefundRef(tx: EntityManager, at: Date): Promise<string> {
  // tx.execute runs inside the caller's transaction (the connection's execute would not).
  const [row] = await tx.execute<Array<{ seq: string }>>(`select nextval('refund_ref_seq')::text as seq`);
  return formatRefundRef(kathmanduToday(at).slice(0, 4), present(row, 'the nextval row').seq);
}
