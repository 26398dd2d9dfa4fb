import { Writable } from 'node:stream';
import { createLogger } from '../../src/kernel/logging/logger';
import { expectSchema } from '../support/contract';
import { everestQuote, ORDERS, QUOTE } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { lowTrek } from '../support/promo-fixtures';
import { newTraveller } from '../support/traveller-fixtures';
import { createOwnDatabase } from '../support/own-database';
import { useTestServer } from '../support/test-server';
import type { WireJson } from '../support/http-client';
import { expectStatus } from '../support/expect-status';

// Database failures forced on a database of this file's own (a renamed table, a unique index
// that every second order violates, killed connections): the partner gets a generic 500 in
// shape 2 and never SQL, driver messages or a stack trace.
let partner: TestPartner;

// The server's real logger (its serializers included), writing into this test.
const logLines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

const { server, client, databaseUrl } = useTestServer({
  ownDatabase: 'dberrors',
  logger: createLogger('info', capture),
});
beforeAll(async () => {
  partner = await newPartner(server, client);
});

const sql = (statement: string) => server.orm.em.getConnection().execute(statement);

/** Words of SQL, PostgreSQL, the driver and the ORM, and stack frames. */
const INTERNALS =
  /\b(select|insert|update|delete|from|where|relation|constraint|violates|duplicate|postgres|pg_|knex|mikro|sqlstate|ECONN)\b|\bat \S+ \(|\.(ts|js):\d+|node_modules|stack/i;

function expectCleanServerError(response: { status: number; body: WireJson }, path: string): void {
  expectStatus(response, 500);
  expectSchema('ApiError', response.body);
  expect(response.body).toMatchObject({ status: 500, message: 'Internal server error', path });
  expect(JSON.stringify(response.body)).not.toMatch(INTERNALS);
}

describe('database errors reach the partner as a bare 500', () => {
  it('when a query fails (a table is missing), then the 500 body names no table, SQL or stack', async () => {
    await sql('alter table quote rename to quote_gone');
    try {
      const response = await client.op(
        'createQuote',
        'POST',
        QUOTE,
        {
          nationality: 'Germany',
          ages: [34],
          startDate: lowTrek('x').departureDate,
          duration: 16,
          routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
        },
        { token: partner.token },
      );
      expectCleanServerError(response, QUOTE);
    } finally {
      await sql('alter table quote_gone rename to quote');
    }
    await expect(everestQuote(client, partner)).resolves.toMatchObject({ quoteStatus: 'ACTIVE' });
  });

  it('when an insert hits a unique violation the service does not expect, then the answer carries no constraint name or SQL and nothing is half-written', async () => {
    const touristId = await newTraveller(server, partner.companyId);
    await sql('create unique index forced_one_order_per_company on insurance_order (company_id)');
    try {
      const [created, clashing] = [
        await client.op('createOrders', 'POST', ORDERS, lowTrek(touristId), { token: partner.token }),
        await client.op('createOrders', 'POST', ORDERS, lowTrek(touristId), { token: partner.token }),
      ];
      expectStatus(created, 201);
      expectCleanServerError(clashing, ORDERS);
      expect(
        await server.orm.em
          .fork()
          .getConnection()
          .execute(`select count(*)::int as n from insurance_order where company_id = '${partner.companyId}'`),
      ).toEqual([{ n: 1 }]);
    } finally {
      await sql('drop index forced_one_order_per_company');
    }
  });

  it("when an order insert fails, then the log line names the error, its SQLSTATE and constraint but none of the statement's values", async () => {
    const touristId = await newTraveller(server, partner.companyId);
    const marker = `passport-X${Date.now()}`;
    await sql('create unique index forced_one_order_per_company_again on insurance_order (company_id)');
    try {
      const order = { ...lowTrek(touristId), extraFields: { passportNumber: marker, medical: 'asthma' } };
      // The company has an order from the test above, so this insert violates the index.
      logLines.length = 0;
      expectCleanServerError(await client.op('createOrders', 'POST', ORDERS, order, { token: partner.token }), ORDERS);
    } finally {
      await sql('drop index forced_one_order_per_company_again');
    }
    const failures = logLines.map((line) => JSON.parse(line)).filter((line) => line.err);
    expect(failures).toEqual([
      expect.objectContaining({
        err: expect.objectContaining({
          type: 'UniqueConstraintViolationException',
          code: '23505',
          constraint: 'forced_one_order_per_company_again',
          table: 'insurance_order',
        }),
      }),
    ]);
    const logged = logLines.join('\n');
    for (const value of [marker, 'asthma', touristId, partner.companyId]) expect(logged).not.toContain(value);
    expect(logged).not.toMatch(/insert into|values \(/i);
  });

  it("when PostgreSQL kills the server's connections, then a failed request is a 503 to retry (an outage, issue 30) and the next ones succeed", async () => {
    // Open some pooled connections first, so there are some to kill.
    await Promise.all(Array.from({ length: 4 }, () => everestQuote(client, partner)));
    const admin = await createOwnDatabase('dberrors_admin');
    try {
      const { Client } = await import('pg');
      const killer = new Client({ connectionString: admin.url });
      await killer.connect();
      const killed = await killer.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [new URL(databaseUrl()).pathname.slice(1)],
      );
      await killer.end();
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.drop();
    }
    const after = await Promise.all(
      Array.from({ length: 6 }, () =>
        client.op(
          'createQuote',
          'POST',
          QUOTE,
          {
            nationality: 'Germany',
            ages: [34],
            startDate: lowTrek('x').departureDate,
            duration: 16,
            routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
          },
          { token: partner.token },
        ),
      ),
    );
    for (const response of after.filter((r) => r.status !== 200)) {
      expectStatus(response, 503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(JSON.stringify(response.body)).not.toMatch(INTERNALS);
    }
    await expect(everestQuote(client, partner)).resolves.toMatchObject({ quoteStatus: 'ACTIVE' });
    console.info(`after killed connections: ${JSON.stringify(after.map((r) => r.status))}`);
  });
});
