import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobInsert, PgBoss } from 'pg-boss';

export const WEBHOOK_QUEUE = 'webhook-delivery';

const BATCH = 500;

/** What a delivery job carries. (Jobs queued before deliveries existed carry only `eventId`: they have nothing left to do.) */
export interface DeliveryJob {
  deliveryId?: string;
  eventId?: string;
}

/**
 * Hands committed outbox rows to the job queue, in one transaction on one connection:
 * 1. events not yet fanned out become one delivery per enabled endpoint of their company
 *    subscribed to their type, judged now; an event no endpoint takes is marked NO_ENDPOINT (a
 *    test event is written with its one delivery, already fanned out);
 * 2. deliveries not yet handed over (new ones, and those retried by hand) get a job each, in
 *    their company's group (the workers cap a company's deliveries in flight), and the job a
 *    retried delivery had is cancelled: a delivery has at most one live job, the one it names.
 * Rows are taken with SKIP LOCKED (processes relaying at once take different rows). Either all of
 * it happens or none, so nothing is lost between the outbox and the queue, and nothing is queued
 * twice by the relay. Returns how many deliveries it handed over.
 */
export async function relayOutbox(
  em: EntityManager,
  boss: PgBoss,
  jobOptions: Omit<JobInsert, 'data'>,
): Promise<number> {
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  try {
    await client.query('begin');
    const events = await client.query<{ id: string }>(
      `select id from webhook_event where enqueued_at is null order by created_at limit ${BATCH} for update skip locked`,
    );
    if (events.rows.length > 0) {
      const ids = events.rows.map((row) => row.id);
      await client.query(
        `insert into webhook_delivery (event_id, endpoint_id, company_id, event_type, created_at)
         select e.id, ep.id, e.company_id, e.type, now()
           from webhook_event e join webhook_endpoint ep on ep.company_id = e.company_id
          where e.id = any($1)
            and ep.enabled and (e.type = any(ep.events) or '*' = any(ep.events))
         on conflict (event_id, endpoint_id) do nothing`,
        [ids],
      );
      await client.query(
        `update webhook_event e set enqueued_at = now(),
                status = case when exists (select 1 from webhook_delivery d where d.event_id = e.id) then 'DISPATCHED' else 'NO_ENDPOINT' end
          where e.id = any($1)`,
        [ids],
      );
    }
    const deliveries = await client.query<{ id: string; company_id: string; job_id: string | null }>(
      `select id, company_id, job_id from webhook_delivery where enqueued_at is null order by created_at limit ${BATCH} for update skip locked`,
    );
    if (deliveries.rows.length > 0) {
      const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
      const replaced = deliveries.rows.flatMap((row) => (row.job_id ? [row.job_id] : []));
      if (replaced.length > 0) await boss.cancel(WEBHOOK_QUEUE, replaced, { db });
      const jobs = deliveries.rows.map((row) => ({
        ...jobOptions,
        id: randomUUID(),
        group: { id: row.company_id },
        data: { deliveryId: row.id },
      }));
      await boss.insert(WEBHOOK_QUEUE, jobs, { db });
      await client.query(
        `update webhook_delivery d set enqueued_at = now(), job_id = j.job_id from unnest($1::uuid[], $2::uuid[]) as j(id, job_id) where d.id = j.id`,
        [jobs.map((job) => job.data.deliveryId), jobs.map((job) => job.id)],
      );
    }
    await client.query('commit');
    return deliveries.rows.length;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
