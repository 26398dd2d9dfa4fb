import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobInsert, PgBoss } from 'pg-boss';

export const WEBHOOK_QUEUE = 'webhook-delivery';

const BATCH = 500;

/**
 * Hands committed outbox rows to the job queue: in one transaction on one connection, the rows
 * not yet handed over are taken (SKIP LOCKED: processes relaying at once take different rows),
 * a delivery job is inserted for each and the rows are marked. Either both happen or neither, so
 * no event is lost between the outbox and the queue, and none is queued twice by the relay.
 * Returns how many it handed over.
 */
export async function relayOutbox(em: EntityManager, boss: PgBoss, jobOptions: Omit<JobInsert, 'data'>): Promise<number> {
  const pool = await em.getConnection().getNativeClient();
  const client = await pool.connect();
  try {
    await client.query('begin');
    const picked = await client.query<{ id: string }>(
      `select id from webhook_event where enqueued_at is null order by created_at limit ${BATCH} for update skip locked`,
    );
    if (picked.rows.length > 0) {
      const ids = picked.rows.map((row) => row.id);
      await boss.insert(WEBHOOK_QUEUE, ids.map((eventId) => ({ ...jobOptions, data: { eventId } })), {
        db: { executeSql: (text, values) => client.query(text, values) },
      });
      await client.query(`update webhook_event set enqueued_at = now() where id = any($1)`, [ids]);
    }
    await client.query('commit');
    return picked.rows.length;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
