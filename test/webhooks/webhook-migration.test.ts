import { randomUUID } from 'node:crypto';
import { initOrm } from '../../src/database';
import type { Orm } from '../../src/kernel/db/orm';
import { Company, CompanyType } from '../../src/modules/partners/entities/company';
import { createOwnDatabase, type OwnDatabase } from '../support/own-database';

/**
 * Migration 20261125221000 on a database that used the one-endpoint-per-company model: each event
 * handed to the queue becomes one delivery to the company's endpoint, with its tries; what was not
 * delivered yet is queued again; nothing is lost.
 */
let database: OwnDatabase;
let orm: Orm;

beforeAll(async () => {
  database = await createOwnDatabase('hooks_migration');
  orm = await initOrm(database.url, 2);
});
afterAll(async () => {
  await orm.close(true);
  await database.drop();
});

describe('the self-service webhook migration', () => {
  it("turns each sent event into one delivery to the company's endpoint with its tries, re-queues what was pending, and keeps the rest", async () => {
    await orm.migrator.up({ to: 'Migration20261202090100_TravellerCounts' });
    const em = orm.em.fork();
    const subscribed = em.create(Company, {
      name: 'Old Hooks Treks',
      type: CompanyType.TravelAgency,
      commissionPercent: '10.00',
    });
    const without = em.create(Company, {
      name: 'No Hooks Treks',
      type: CompanyType.TravelAgency,
      commissionPercent: '10.00',
    });
    await em.flush();
    const sql = (text: string, params: unknown[] = []) => orm.em.getConnection().execute(text, params);
    await sql(
      `insert into webhook_endpoint (company_id, url, secret) values (?, 'https://hooks.old.example.com/pbs', 'whsec_AAAA')`,
      [subscribed.id],
    );
    const event = (name: string) => `evt_${name.padEnd(32, '0')}`;
    const rows: Array<[string, string, string, boolean, number]> = [
      [event('a1'), subscribed.id, 'DELIVERED', true, 2],
      [event('b2'), subscribed.id, 'FAILED', true, 1],
      [event('c3'), subscribed.id, 'PENDING', true, 1],
      [event('d4'), subscribed.id, 'PENDING', false, 0],
      [event('e5'), without.id, 'NO_ENDPOINT', true, 0],
    ];
    for (const [id, companyId, status, enqueued, tries] of rows) {
      await sql(
        `insert into webhook_event (id, company_id, type, payload, status, attempts, enqueued_at) values (?, ?, 'order.paid', '{}'::jsonb, ?, ?, ${enqueued ? 'now()' : 'null'})`,
        [id, companyId, status, tries],
      );
      for (let attempt = 1; attempt <= tries; attempt++) {
        const outcome = status === 'DELIVERED' && attempt === tries ? 'DELIVERED' : 'FAILED';
        await sql(
          `insert into webhook_delivery (id, event_id, attempt, url, outcome, response_code, latency_ms) values (?, ?, ?, 'https://hooks.old.example.com/pbs', ?, ?, 12)`,
          [randomUUID(), id, attempt, outcome, outcome === 'DELIVERED' ? 204 : 500],
        );
      }
    }

    await orm.migrator.up();

    const deliveries = await sql(
      `select event_id, status, attempts, enqueued_at is not null as enqueued, endpoint_id is not null as has_endpoint from webhook_delivery order by event_id`,
    );
    expect(deliveries).toEqual([
      { event_id: event('a1'), status: 'SUCCEEDED', attempts: 2, enqueued: true, has_endpoint: true },
      { event_id: event('b2'), status: 'FAILED', attempts: 1, enqueued: true, has_endpoint: true },
      { event_id: event('c3'), status: 'PENDING', attempts: 1, enqueued: false, has_endpoint: true },
    ]);
    const tries = await sql(
      `select t.event_id, count(*)::int as n from webhook_delivery_try t join webhook_delivery d on d.id = t.delivery_id and d.event_id = t.event_id group by t.event_id order by t.event_id`,
    );
    expect(tries).toEqual([
      { event_id: event('a1'), n: 2 },
      { event_id: event('b2'), n: 1 },
      { event_id: event('c3'), n: 1 },
    ]);
    const events = await sql(`select id, status from webhook_event order by id`);
    expect(events).toEqual([
      { id: event('a1'), status: 'DISPATCHED' },
      { id: event('b2'), status: 'DISPATCHED' },
      { id: event('c3'), status: 'DISPATCHED' },
      { id: event('d4'), status: 'PENDING' },
      { id: event('e5'), status: 'NO_ENDPOINT' },
    ]);
    const [endpoint] = await sql(`select events, enabled, id is not null as has_id from webhook_endpoint`);
    expect(endpoint).toEqual({ events: ['*'], enabled: true, has_id: true });
  });
});
