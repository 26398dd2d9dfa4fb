import net from 'node:net';
import { eventually } from '../support/eventually';
import { copyOrder } from '../support/bulk-orders';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { placeOrder, type PlacedOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Decision records 0076 and 0094: CSV exports run on their own
 * connection budget, a company may run only so many at once, and a client that stops reading is
 * cut. The request pool is as small as the export budget, so exports that held request
 * connections would starve every other call.
 */
// A stall of 12 s and a 3 s wait for an export connection: under a loaded CI run opening a
// connection took longer than 500 ms (the export was refused as if the slots were busy), and the
// ten exports take seconds to start.
const { server, client } = useTestServer({
  env: {
    DB_POOL_MAX: '4',
    EXPORT_DB_CONNECTIONS: '4',
    EXPORTS_PER_COMPANY: '2',
    EXPORT_CONNECTION_WAIT_MS: '3000',
    HTTP_STREAM_STALL_SECONDS: '12',
  },
});
/** Five companies with two exports each: the ten exports that never read. */
const exporters: TestPartner[] = [];
const placed: PlacedOrder[] = [];
/** Orders per company, each with a 12,000-character route name: 48 MB of CSV, more than loopback socket buffers take in (they grow to 32 MB here). */
const BOOK_SIZE = 4000;

beforeAll(async () => {
  for (let i = 0; i < 5; i++) {
    const partner = await newPartner(server, client, { name: `Export Treks ${i}` });
    const order = await placeOrder(server, client, partner);
    await copyOrder(server, order.orderId, BOOK_SIZE, { customRouteNameLength: 12_000 });
    exporters.push(partner);
    placed.push(order);
  }
}, 120_000);

/**
 * A CSV export on its own socket whose client reads nothing after sending the request. It asks
 * for `Connection: close`, so `closed` resolves once the server is done with it: after a refusal,
 * or when it cuts the export.
 */
function unreadExport(partner: TestPartner) {
  const socket = net.connect(server.port, '127.0.0.1');
  socket.write(
    `GET ${ORDERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/csv\r\nAuthorization: Bearer ${partner.token}\r\nConnection: close\r\n\r\n`,
  );
  socket.pause();
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  // Paused, it takes nothing in: what arrives waits in the socket's buffers until `drain` resumes it.
  socket.pause();
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => undefined);
  return { socket, closed, drain: () => socket.resume() };
}

/** Sessions of the export pool inside an export's transaction (fetching a batch or waiting for the client to read), in this file's database. */
async function exportSessions(): Promise<number> {
  const rows = await server.orm.em
    .getConnection()
    .execute<Array<{ open: string }>>(
      `select count(*) as open from pg_stat_activity where application_name = 'streamed-answers' and xact_start is not null and datname = current_database()`,
    );
  return Number(rows[0]?.open ?? 0);
}

/** Waits for `count` export sessions; when they do not come, fails with what the export pool's sessions are doing. */
async function expectExportSessions(count: number): Promise<void> {
  const seen = await eventually(exportSessions, (open) => open === count, { timeoutMs: 30_000 }).catch(() => -1);
  if (seen === count) return;
  const sessions = await server.orm.em
    .getConnection()
    .execute(
      `select state, wait_event_type, wait_event, left(query, 60) as query, now() - xact_start as in_transaction from pg_stat_activity where application_name = 'streamed-answers'`,
    );
  throw new Error(
    `expected ${count} export sessions in a transaction, saw ${await exportSessions()}: ${JSON.stringify(sessions)}`,
  );
}

describe('GET /orders with Accept: text/csv under load', () => {
  it('when ten exports never read, then POST /auth/token and GET /orders/{orderRef} keep answering, and the stalled exports are cut', async () => {
    const held = exporters.flatMap((partner) => [unreadExport(partner), unreadExport(partner)]);
    await expectExportSessions(4);

    const owner = exporters[0]!;
    const token = await client.op('issueToken', 'POST', '/api/external/v1/auth/token', {
      clientId: owner.clientId,
      clientSecret: owner.clientSecret,
    });
    expectStatus(token, 200);
    const order = await client.op('getOrder', 'GET', `${ORDERS}/${placed[0]!.orderRef}`, undefined, {
      token: owner.token,
    });
    expectStatus(order, 200);

    // The stalled exports are cut: their connections go back, and what their clients then read ends short.
    await expectExportSessions(0);
    const answers = await Promise.all(held.map((one) => (one.drain(), one.closed)));
    const statuses = answers.map((text) => text.slice(0, 12));
    expect(statuses.filter((status) => status === 'HTTP/1.1 200').length).toBe(4);
    expect(statuses.filter((status) => status === 'HTTP/1.1 429').length).toBe(6);
    // A whole chunked body ends with its last, empty chunk; a cut one does not.
    for (const text of answers.filter((answer) => answer.startsWith('HTTP/1.1 200')))
      expect(text.endsWith('\r\n0\r\n\r\n')).toBe(false);
  }, 120_000);

  it('when a company already runs its two exports, then a third is a 429 with Retry-After, and its exports done, it may export again', async () => {
    const [partner] = exporters;
    const first = unreadExport(partner!);
    const second = unreadExport(partner!);
    await expectExportSessions(2);

    const third = await client.op('listOrders', 'GET', ORDERS, undefined, {
      token: partner!.token,
      headers: { accept: 'text/csv' },
    });
    expectStatus(third, 429);
    expect(third.body.message).toBe(
      'At most 2 exports per company may run at once; finish reading one, then try again',
    );
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another company is not counted against this one.
    const other = await client.op('listOrders', 'GET', `${ORDERS}?search=${placed[1]!.orderRef}`, undefined, {
      token: exporters[1]!.token,
      headers: { accept: 'text/csv' },
    });
    expect({ status: other.status, message: other.body?.message }).toEqual({ status: 200, message: undefined });

    first.socket.destroy();
    second.socket.destroy();
    await expectExportSessions(0);
    const again = await client.op('listOrders', 'GET', `${ORDERS}?search=${placed[0]!.orderRef}`, undefined, {
      token: partner!.token,
      headers: { accept: 'text/csv' },
    });
    expectStatus(again, 200);
  }, 120_000);
});
