import pg from 'pg';
import { AssistanceCase } from '../../src/modules/assistance/entities/assistance-case';
import { AuditEntry, AUDIT_ENTRY_COLUMNS } from '../../src/modules/orders';
import { WEBHOOK_EVENT_COLUMNS } from '../../src/modules/webhooks';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { openCase, paidOrder } from '../support/assistance-fixtures';

// Issue 51 item 6 (decision 0106): the assistance case's one-statement opening writes two tables
// it does not own, audit_entry (orders) and webhook_event (webhooks), with SQL their owners give
// it; and it re-checks the order's status inside that statement.

const { server, client, databaseUrl } = useTestServer();
let placing: TestPartner;

beforeAll(async () => {
  placing = await newPartner(server, client, { name: 'Owners Check Treks' });
});

/** The real table's columns: name, whether NULL is allowed, and whether the database has a default. */
async function tableColumns(table: string): Promise<Array<{ name: string; required: boolean }>> {
  const rows = await server.orm.em
    .fork()
    .getConnection()
    .execute<Array<{ column_name: string; is_nullable: string; column_default: string | null }>>(
      `select column_name, is_nullable, column_default from information_schema.columns where table_name = ? and table_schema = current_schema()`,
      [table],
    );
  return rows.map((row) => ({
    name: row.column_name,
    required: row.is_nullable === 'NO' && row.column_default === null,
  }));
}

/** The entity's mapped columns, read once the server (and its metadata) is up. */
function entityColumns<T extends object>(entity: new (...args: never[]) => T): () => string[] {
  return () =>
    Object.values(server.orm.getMetadata().find(entity)?.properties ?? {}).flatMap(
      (property) => property.fieldNames ?? [],
    );
}

describe("the opening's SQL on tables other modules own", () => {
  it.each([
    ['audit_entry', entityColumns(AuditEntry), [...AUDIT_ENTRY_COLUMNS] as string[]],
    ['webhook_event', entityColumns(WebhookEvent), Object.keys(WEBHOOK_EVENT_COLUMNS)],
  ])(
    'names only columns of the %s entity, and every column the real table requires',
    async (table, mappedColumns, listed) => {
      const mapped = mappedColumns();
      expect(listed.filter((column) => !mapped.includes(column))).toEqual([]);
      const required = (await tableColumns(table)).filter((column) => column.required).map((column) => column.name);
      expect(required.filter((column) => !listed.includes(column))).toEqual([]);
    },
  );
});

/** Waits until a backend other than `watcher` waits on a row lock, or the opening answers first. */
async function openingWaitsOnLock(watcher: pg.Client, answered: () => boolean): Promise<boolean> {
  for (let tries = 0; tries < 100 && !answered(); tries++) {
    const { rows } = await watcher.query<{ waiting: number }>(
      `select count(*)::int as waiting from pg_stat_activity
        where wait_event_type = 'Lock' and pid <> pg_backend_pid() and datname = current_database()`,
    );
    if ((rows[0]?.waiting ?? 0) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('POST /orders/{orderRef}/assistance-cases racing a cancellation', () => {
  it('refuses the case and writes nothing when the order is cancelled between the opening read and its write', async () => {
    const order = await paidOrder(server, client, placing);
    const canceller = new pg.Client({ connectionString: databaseUrl() });
    await canceller.connect();
    try {
      // The cancellation has written the order's status and not yet committed: the opening reads PAID.
      await canceller.query('begin');
      await canceller.query(`update insurance_order set status = 'CANCELLED' where id = $1`, [order.orderId]);
      let answered = false;
      const opening = openCase(client, placing, order.orderRef).finally(() => {
        answered = true;
      });
      const waited = await openingWaitsOnLock(canceller, () => answered);
      await canceller.query('commit');
      const answer = await opening;

      expectStatus(answer, 400);
      expect(answer.body.code).toBe('ORDER_ALREADY_CANCELLED');
      expect(waited).toBe(true);
      const em = server.orm.em.fork();
      expect(await em.count(AssistanceCase, { order: order.orderId })).toBe(0);
      expect(await em.count(AuditEntry, { order: order.orderId, action: 'ASSISTANCE_CASE_OPENED' })).toBe(0);
      expect(
        await em.count(WebhookEvent, {
          type: 'assistance_case.opened',
          payload: { data: { orderRef: order.orderRef } },
        }),
      ).toBe(0);
    } finally {
      await canceller.end();
    }
  });

  it('opens the case as before when the order stays paid', async () => {
    const order = await paidOrder(server, client, placing);
    const answer = await openCase(client, placing, order.orderRef);
    expectStatus(answer, 201);
    const em = server.orm.em.fork();
    expect(await em.count(AuditEntry, { order: order.orderId, action: 'ASSISTANCE_CASE_OPENED' })).toBe(1);
    expect(
      await em.count(WebhookEvent, { type: 'assistance_case.opened', payload: { data: { orderRef: order.orderRef } } }),
    ).toBe(1);
  });
});
