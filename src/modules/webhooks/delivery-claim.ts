import type { EntityManager } from '@mikro-orm/postgresql';
import { JOB_SCHEMA } from '../../kernel/jobs/job-queue';
import { claimDecision } from './rules/delivery-claim';
import { WEBHOOK_QUEUE } from './relay';

/** A delivery claimed for one try: its lease is taken and its try counted. */
export interface ClaimedDelivery {
  attempts: number;
  event_id: string;
  endpoint_id: string;
}

/** The company's (first parameter) sends in flight: its running delivery jobs whose delivery is leased. */
const IN_FLIGHT = `select count(*)::int from ${JOB_SCHEMA}.job j join webhook_delivery sent on sent.id = (j.data->>'deliveryId')::uuid
  where j.name = '${WEBHOOK_QUEUE}' and j.state = 'active' and j.group_id = ? and sent.lease_until > now()`;

export type Claim = { claimed: ClaimedDelivery } | { refused: 'NOT_DUE' | 'RETRY' | 'NO_SLOT' };

/**
 * Claims a delivery for job `jobId`, in one short transaction that holds its company's claim lock
 * (a transaction-scoped advisory lock): claims of one company's deliveries run one after the
 * other in every process, so each counts the sends the ones before it started, and no more than
 * `perCompany` leases are ever out at once, however many workers a burst woke together (pg-boss's
 * own group limit counts from the snapshot each fetch sees, and fetches run side by side).
 *
 * A send in flight is a lease held by a job the queue runs: the company's active jobs (pg-boss's
 * index on active jobs by group finds them) whose delivery is leased. A job that was fetched but
 * has no slot is not counted, and a lease whose process died stops counting when pg-boss expires
 * its job, just after the lease. No lock is held while the request runs.
 */
export async function claimDelivery(
  em: EntityManager,
  deliveryId: string,
  jobId: string,
  { leaseSeconds, perCompany }: { leaseSeconds: number; perCompany: number },
): Promise<Claim> {
  return em.fork().transactional(async (tx) => {
    const [locked] = await tx.execute<{ company_id: string }[]>(
      `select company_id, pg_advisory_xact_lock(hashtextextended('webhook-claim:' || company_id, 0)) from webhook_delivery where id = ?`,
      [deliveryId],
    );
    if (locked === undefined) return { refused: 'NOT_DUE' };
    const decision = claimDecision(await claimable(tx, deliveryId, locked.company_id), jobId, perCompany);
    if (decision === 'CLAIM') {
      const [claimed] = await tx.execute<ClaimedDelivery[]>(
        `update webhook_delivery set lease_until = now() + make_interval(secs => ?), attempts = attempts + 1
          where id = ? and status = 'PENDING' and (job_id is null or job_id = ?) and (lease_until is null or lease_until < now())
          returning attempts, event_id, endpoint_id`,
        [leaseSeconds, deliveryId, jobId],
      );
      // Nothing claimed: a retry by hand replaced the job since the read, and its own job sends it.
      return claimed === undefined ? { refused: 'NOT_DUE' } : { claimed };
    }
    if (decision === 'NO_SLOT') await putBackUntried(tx, jobId);
    return { refused: decision };
  });
}

/**
 * The delivery and its company's sends in flight, read once after the lock (a statement of its
 * own: under READ COMMITTED it sees every claim committed before). The decision and the claim
 * must come from this one read: the sends in flight can only fall until the lock is let go (other
 * claims wait for it), so a slot seen here is still free at the claim; a second read after a
 * refused claim could see a send that ended meanwhile and drop a delivery it had not sent.
 */
async function claimable(tx: EntityManager, deliveryId: string, companyId: string) {
  const [row] = await tx.execute<{ status: string; job_id: string | null; leased: boolean; in_flight: number }[]>(
    `select status, job_id, coalesce(lease_until > now(), false) as leased, (${IN_FLIGHT}) as in_flight from webhook_delivery where id = ?`,
    [companyId, deliveryId],
  );
  return row && { status: row.status, jobId: row.job_id, leased: row.leased, companyInFlight: row.in_flight };
}

/**
 * Back in the queue untried, as pg-boss's own restore puts back a job past its local group limit
 * (not public in its API): created again, its start cleared so that the next claim counts no
 * retry. The worker's completion of it must then match nothing (pg-boss settles only an active
 * job): the job waits a second before any worker may fetch it again, far longer than this worker
 * takes to report it done, which would otherwise complete the job another worker had just taken.
 */
async function putBackUntried(tx: EntityManager, jobId: string): Promise<void> {
  await tx.execute(
    `update ${JOB_SCHEMA}.job set state = 'created', started_on = null, heartbeat_on = null, upsert_by_key = null,
      start_after = now() + interval '1 second' where name = ? and id = ? and state = 'active'`,
    [WEBHOOK_QUEUE, jobId],
  );
}
