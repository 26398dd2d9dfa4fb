import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { AuditEntry } from '../orders/entities/audit-entry';
import { PaymentAttempt } from '../payments/entities/payment-attempt';
import { Refund } from './entities/refund';
import { moveRefund } from './refund-life';
import type { RefundPorts } from './refund-deps';
import { isRefundRef, refundStep, type RefundStatus } from './rules/refund-life';
import { lockShareForRefunds, lockSharesForRefunds, shareLeft } from './share-room';
import { decimalStringFromMinor, type Minor } from '../../kernel/money';

/** `ops refund list`: newest first, optionally of some statuses only. */
export function listRefunds(
  em: EntityManager,
  options: { statuses?: RefundStatus[]; limit?: number } = {},
): Promise<Refund[]> {
  const where: FilterQuery<Refund> =
    options.statuses && options.statuses.length > 0 ? { status: { $in: options.statuses } } : {};
  return em.find(Refund, where, {
    populate: ['order', 'attempt'],
    orderBy: { createdAt: 'desc', refundRef: 'desc' },
    limit: options.limit ?? 100,
  });
}

/** `ops refund show`: the refund and its order's audit entries about refunds. */
export async function refundOverview(
  em: EntityManager,
  refundRef: string,
): Promise<{ refund: Refund; audit: AuditEntry[] }> {
  const refund = await findRefund(em, refundRef);
  const audit = (await em.find(AuditEntry, { order: refund.order.id }, { orderBy: { at: 'asc', id: 'asc' } })).filter(
    (entry) => entry.details.refundRef === refund.refundRef,
  );
  return { refund, audit };
}

async function findRefund(em: EntityManager, refundRef: string): Promise<Refund> {
  const ref = refundRef.trim().toUpperCase();
  if (!isRefundRef(ref)) throw new OperatorRefusal(`${refundRef} is not a refund reference (RFD-<year>-<seq>)`);
  const refund = await em.findOne(Refund, { refundRef: ref });
  if (!refund) throw new OperatorRefusal(`no refund ${ref}`);
  await em.populate(refund, ['order', 'attempt']);
  return refund;
}

/**
 * The refund as it is under its share's refund lock (decision 0091): the payment watch and the
 * executor take the same lock to move it, so what this transaction reads next is what it moves.
 */
async function lockedRefund(tx: EntityManager, refundRef: string): Promise<Refund> {
  const found = await findRefund(tx, refundRef);
  await lockShareForRefunds(tx, { attemptId: found.attempt.id, orderId: found.order.id });
  return tx.findOneOrFail(Refund, found.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/**
 * Refuses a step that would make the refund hold more of its share than its other refunds not
 * FAILED left (a FAILED refund holds nothing, so confirming or retrying one must fit again).
 */
async function mustFit(tx: EntityManager, refund: Refund, amount: Minor): Promise<void> {
  const left = await shareLeft(tx, { attemptId: refund.attempt.id, orderId: refund.order.id }, refund.id);
  if (left === null || amount + refund.fee <= left) return;
  throw new OperatorRefusal(
    `refund ${refund.refundRef}: ${refund.currency} ${decimalStringFromMinor(amount)} does not fit in what its share has left (${refund.currency} ${decimalStringFromMinor(Math.max(0, left - refund.fee))} after the other refunds of the share${refund.fee > 0 ? ' and its fee' : ''}): give --amount with what actually went back`,
  );
}

/**
 * `ops refund confirm <refundRef> --note [--amount]`: the operator gave the money back by hand
 * (the provider's portal, a bank transfer, cash): a MANUAL or FAILED refund becomes SUCCEEDED,
 * with the note and, when it differs from the amount recorded, the amount actually given back
 * (after a partial reversal at the provider, what was left), in one transaction under the
 * share's refund lock.
 */
export async function confirmRefund(
  em: EntityManager,
  ports: RefundPorts,
  refundRef: string,
  note: string,
  actor: string,
  now = new Date(),
  amount?: Minor,
): Promise<Refund> {
  return em.fork().transactional(async (tx) => {
    const refund = await lockedRefund(tx, refundRef);
    if (refund.status === 'SUCCEEDED')
      throw new OperatorRefusal(
        `refund ${refund.refundRef} already SUCCEEDED${refund.completedAt ? ` (${refund.completedAt.toISOString()})` : ''}`,
      );
    if (refund.status === 'PENDING') {
      throw new OperatorRefusal(
        `refund ${refund.refundRef} is PENDING: the service is making it at ${refund.gateway}; confirm only a MANUAL or FAILED refund`,
      );
    }
    if (amount !== undefined && (!Number.isSafeInteger(amount) || amount < 0))
      throw new OperatorRefusal('--amount must be a whole, non-negative amount');
    await mustFit(tx, refund, amount ?? refund.amount);
    await moveRefund(
      tx,
      refund,
      {
        step: 'CONFIRM',
        actor,
        at: now,
        note,
        ...(amount === undefined ? {} : { amount }),
      },
      ports,
    );
    await tx.flush();
    return refund;
  });
}

/** `ops refund retry <refundRef>`: a FAILED refund is tried again at its provider by the executor, now. */
export async function retryRefund(
  em: EntityManager,
  ports: RefundPorts,
  refundRef: string,
  actor: string,
  now = new Date(),
): Promise<Refund> {
  return em.fork().transactional(async (tx) => {
    const refund = await lockedRefund(tx, refundRef);
    const step = refundStep(refund.status, 'RETRY');
    if ('refused' in step)
      throw new OperatorRefusal(`refund ${refund.refundRef} is ${refund.status}; only a FAILED refund can be retried`);
    await mustFit(tx, refund, refund.amount);
    await moveRefund(tx, refund, { step: 'RETRY', actor, at: now }, ports);
    await tx.flush();
    return refund;
  });
}

/**
 * `ops payment refund <paymentRef> --note`: an alias of `ops refund confirm` for every refund of
 * the payment that waits for the operator (MANUAL or FAILED), in one transaction. A refund the
 * service is still making (PENDING) refuses the whole command: confirming it by hand could give
 * the money back twice.
 */
export async function confirmRefundsOfPayment(
  em: EntityManager,
  ports: RefundPorts,
  paymentRef: string,
  note: string,
  actor: string,
  now = new Date(),
): Promise<Refund[]> {
  return em.fork().transactional(async (tx) => {
    const attempt = await tx.findOne(PaymentAttempt, { paymentRef: paymentRef.trim() });
    if (!attempt) throw new OperatorRefusal(`no payment attempt ${paymentRef}`);
    const owing = await tx.execute<Array<{ order_id: string }>>(
      `select distinct "order_id" from "refund" where "attempt_id" = ?`,
      [attempt.id],
    );
    await lockSharesForRefunds(
      tx,
      attempt.id,
      owing.map((row) => row.order_id),
    );
    const refunds = await tx.find(
      Refund,
      { attempt: attempt.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { refundRef: 'asc' }, refresh: true },
    );
    const inFlight = refunds.filter((refund) => refund.status === 'PENDING');
    if (inFlight.length > 0) {
      throw new OperatorRefusal(
        `payment ${attempt.paymentRef} has refunds the service is making (${inFlight.map((refund) => refund.refundRef).join(', ')}): wait for them, then confirm what is MANUAL or FAILED`,
      );
    }
    const waiting = refunds.filter((refund) => refund.status === 'MANUAL' || refund.status === 'FAILED');
    if (waiting.length === 0)
      throw new OperatorRefusal(
        `payment ${attempt.paymentRef} owes no refund${attempt.refundedAt ? ` (refund recorded ${attempt.refundedAt.toISOString()})` : ''}`,
      );
    await tx.populate(waiting, ['order', 'attempt']);
    for (const refund of waiting) {
      await mustFit(tx, refund, refund.amount);
      await moveRefund(tx, refund, { step: 'CONFIRM', actor, at: now, note }, ports);
      await tx.flush();
    }
    await ports.refundWrites.noted(tx, attempt, note, now);
    await tx.flush();
    return waiting;
  });
}
