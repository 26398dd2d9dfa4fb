import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { auditEntriesOf, recordAudit, type AuditEntry } from '../orders';
import { Refund } from './entities/refund';
import { completeRefund } from './refund-execution';
import { refundAuditDetails } from './refunds';
import { isRefundRef, type RefundStatus } from './rules/refund';

/** `ops refund list`: newest first, optionally of some statuses only. */
export function listRefunds(em: EntityManager, options: { statuses?: RefundStatus[]; limit?: number } = {}): Promise<Refund[]> {
  const where: FilterQuery<Refund> = options.statuses && options.statuses.length > 0 ? { status: { $in: options.statuses } } : {};
  return em.find(Refund, where, { populate: ['order', 'attempt'], orderBy: { createdAt: 'desc', refundRef: 'desc' }, limit: options.limit ?? 100 });
}

/** `ops refund show`: the refund and its order's audit entries about refunds. */
export async function refundOverview(em: EntityManager, refundRef: string): Promise<{ refund: Refund; audit: AuditEntry[] }> {
  const refund = await findRefund(em, refundRef);
  const audit = (await auditEntriesOf(em, refund.order.id)).filter((entry) => entry.details.refundRef === refund.refundRef);
  return { refund, audit };
}

async function findRefund(em: EntityManager, refundRef: string, lock = false): Promise<Refund> {
  const ref = refundRef.trim().toUpperCase();
  if (!isRefundRef(ref)) throw new OperatorRefusal(`${refundRef} is not a refund reference (RFD-<year>-<seq>)`);
  const refund = await em.findOne(Refund, { refundRef: ref }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!refund) throw new OperatorRefusal(`no refund ${ref}`);
  await em.populate(refund, ['order', 'attempt']);
  return refund;
}

/**
 * `ops refund confirm <refundRef> --note`: the operator gave the money back by hand (the
 * provider's portal, a bank transfer, cash): a MANUAL or FAILED refund becomes SUCCEEDED, with
 * the note, in one transaction under the refund's row lock.
 */
export async function confirmRefund(em: EntityManager, refundRef: string, note: string, actor: string, now = new Date()): Promise<Refund> {
  return em.fork().transactional(async (tx) => {
    const refund = await findRefund(tx, refundRef, true);
    if (refund.status === 'SUCCEEDED') throw new OperatorRefusal(`refund ${refund.refundRef} already SUCCEEDED${refund.completedAt ? ` (${refund.completedAt.toISOString()})` : ''}`);
    if (refund.status === 'PENDING') {
      throw new OperatorRefusal(`refund ${refund.refundRef} is PENDING: the service is making it at ${refund.gateway}; confirm only a MANUAL or FAILED refund`);
    }
    await completeRefund(tx, refund, { actor, at: now, note });
    await tx.flush();
    return refund;
  });
}

/** `ops refund retry <refundRef>`: a FAILED refund is tried again at its provider by the executor, now. */
export async function retryRefund(em: EntityManager, refundRef: string, actor: string, now = new Date()): Promise<Refund> {
  return em.fork().transactional(async (tx) => {
    const refund = await findRefund(tx, refundRef, true);
    if (refund.status !== 'FAILED') throw new OperatorRefusal(`refund ${refund.refundRef} is ${refund.status}; only a FAILED refund can be retried`);
    refund.status = 'PENDING';
    refund.nextTryAt = now;
    refund.completedAt = null;
    // Tries before this one count as a retry (a lookup comes first), but the give-up count starts again.
    refund.tries = Math.min(refund.tries, 1);
    recordAudit(tx, { actor, action: 'REFUND_RETRIED', order: refund.order, at: now, details: refundAuditDetails(refund) });
    await tx.flush();
    return refund;
  });
}
