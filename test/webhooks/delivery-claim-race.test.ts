import type { EntityManager } from '@mikro-orm/postgresql';
import { claimDelivery } from '../../src/modules/webhooks/delivery-claim';
import { WEBHOOK_QUEUE, type DeliveryJob } from '../../src/modules/webhooks/relay';
import { newPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { webhookApi } from './webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * Decision record 0086: a claim refused for want of a slot puts its job back; it never ends a
 * delivery it has not sent. Background jobs off and a database of its own: the jobs under test are
 * fetched here, and no worker takes them.
 */
const { server, client } = useTestServer({ ownDatabase: 'webhook_claim_race' });
const api = webhookApi(client);
const PER_COMPANY = 2;

/** `em` whose claim transaction runs `between` after its `nth` statement, as another process's work landing then. */
function landingAfterStatement(em: EntityManager, nth: number, between: () => Promise<void>): EntityManager {
  const fork = () => {
    const forked = em.fork();
    const transactional = <T>(work: (tx: EntityManager) => Promise<T>) =>
      forked.transactional((tx) => {
        let statements = 0;
        const execute = async (...args: Parameters<EntityManager['execute']>) => {
          const rows = await tx.execute(...args);
          statements += 1;
          if (statements === nth) await between();
          return rows;
        };
        return work(new Proxy(tx, { get: (target, key) => (key === 'execute' ? execute : Reflect.get(target, key)) }));
      });
    return { transactional } as unknown as EntityManager;
  };
  return { fork } as unknown as EntityManager;
}

async function sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
  return server.orm.em.getConnection().execute<T[]>(query, params);
}

describe('a delivery claim when its company is at the cap', () => {
  it('when one of the company’s sends ends while the claim is deciding, then the job goes back to the queue untried and its delivery stays PENDING, not ended unsent', async () => {
    const partner = await newPartner(server, client);
    const created = await api.create(partner, {
      url: 'https://hooks.example.com/claim-race',
      events: ['webhook.test'],
    });
    expectStatus(created, 201);
    for (let i = 0; i < PER_COMPANY + 1; i++) expectStatus(await api.test(partner, created.body.data.endpointId), 202);
    await server.webhooks.relayOnce();
    const jobs = await server.queue.boss.fetch<DeliveryJob>(WEBHOOK_QUEUE, { batchSize: PER_COMPANY + 1 });
    expect(jobs).toHaveLength(PER_COMPANY + 1);
    const [ending, sending, waiting] = jobs.map((job) => ({ jobId: job.id, deliveryId: job.data.deliveryId ?? '' }));
    if (!ending || !sending || !waiting) throw new Error('three delivery jobs expected');
    // Two sends in flight: their jobs run and their deliveries are leased.
    await sql(`update webhook_delivery set lease_until = now() + interval '1 minute' where id in (?, ?)`, [
      ending.deliveryId,
      sending.deliveryId,
    ]);
    // Just after the claim has counted the sends in flight (its lock, then its first look), one ends.
    const endOneSend = async () => {
      await sql(`update webhook_delivery set lease_until = null, status = 'SUCCEEDED' where id = ?`, [
        ending.deliveryId,
      ]);
      await sql(`update pgboss.job set state = 'completed', completed_on = now() where id = ?`, [ending.jobId]);
    };

    const claim = await claimDelivery(
      landingAfterStatement(server.orm.em, 2, endOneSend),
      waiting.deliveryId,
      waiting.jobId,
      {
        leaseSeconds: 60,
        perCompany: PER_COMPANY,
      },
    );

    expect(claim).toEqual({ refused: 'NO_SLOT' });
    const [job] = await sql<{ state: string; retry_count: number }>(
      `select state, retry_count from pgboss.job where id = ?`,
      [waiting.jobId],
    );
    expect(job).toEqual({ state: 'created', retry_count: 0 });
    const [delivery] = await sql<{ status: string; attempts: number }>(
      `select status, attempts from webhook_delivery where id = ?`,
      [waiting.deliveryId],
    );
    expect(delivery).toEqual({ status: 'PENDING', attempts: 0 });
  });
});
