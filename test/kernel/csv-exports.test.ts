import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { OperationId } from '../../src/kernel/http/contract';
import { periodOf } from '../../src/modules/commissions/rules/commission-period';
import { copyRow } from '../support/bulk-orders';
import { eventually } from '../support/eventually';
import { expectStatus } from '../support/expect-status';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';

/**
 * Issue 52 item 12 (decision record 0094): every operation the contract answers with `text/csv`
 * streams through the kernel's one export path. Read from the bundled document, so an export added
 * later is held to it too: each reads on the streaming pool (never a request connection), a second
 * export of the company beyond EXPORTS_PER_COMPANY is a 429 with Retry-After, and an export whose
 * client stops reading is cut and gives its connection back.
 */
// A database of its own: the bulk rows below must not reach other files' jobs or invariant checks.
const { server, client } = useTestServer({
  ownDatabase: 'csv_exports',
  env: {
    DB_POOL_MAX: '4',
    EXPORT_DB_CONNECTIONS: '4',
    EXPORTS_PER_COMPANY: '1',
    EXPORT_CONNECTION_WAIT_MS: '3000',
    HTTP_STREAM_STALL_SECONDS: '3',
  },
});

interface BundledOperation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
const bundle = JSON.parse(readFileSync('generated/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, BundledOperation>>;
};

/** The operations whose documented answers include `text/csv`, as the bundled document the server routes by says. */
function csvOperations(): string[] {
  return Object.values(bundle.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) => {
      const answersCsv = Object.values(operation.responses ?? {}).some((response) =>
        Object.keys(response.content ?? {}).some((type) => type.startsWith('text/csv')),
      );
      return operation.operationId && answersCsv ? [operation.operationId] : [];
    }),
  );
}

/** A company with one paid, cancelled order: an order, its refund and its commission lines to export. */
interface Exporter {
  partner: TestPartner;
  orderId: string;
  refundRef: string;
}

/**
 * How each export is asked for, and how its company's export is made larger than loopback socket
 * buffers take in (about 4 MB for a client that never reads): larger than that, an unread export
 * stalls at the server and must be cut there. An operation the document answers with `text/csv`
 * and this table lacks fails the first test: add it here.
 */
const EXPORTS: Partial<Record<OperationId, { path: () => string; fill: (exporter: Exporter) => Promise<void> }>> = {
  listOrders: {
    path: () => ORDERS,
    // 10,000 orders on a custom route with a 1,000-character name (the CSV's routeName): about 11 MB
    // in batches of 1 MB (the pipeline holds a few batches whole, and they must not hold the export).
    fill: ({ orderId }) =>
      copyRow(server, 'insurance_order', orderId, 10_000, {
        order_ref: `order_ref || '-' || n`,
        order_number: `order_number || '-' || n`,
        policy_number: `policy_number || '-' || n`,
        quote_id: 'null',
        route_id: 'null',
        custom_route_name: `rpad('Annapurna circuit', 1000, ' and back')`,
      }),
  },
  listRefunds: {
    path: () => '/api/external/v1/refunds',
    // 60,000 refunds of about 150 bytes each: about 9 MB.
    fill: async ({ refundRef }) =>
      copyRow(server, 'refund', await idOf('refund', 'refund_ref', refundRef), 60_000, {
        refund_ref: `refund_ref || '-' || n`,
        cause: `'PROVIDER_REVERSAL'`,
      }),
  },
  listClaims: {
    path: () => '/api/external/v1/claims',
    // One claim on the exporter's order, then 60,000 copies of about 140 bytes each: about 8 MB.
    fill: async ({ partner, orderId }) => {
      const id = randomUUID();
      await server.orm.em.getConnection().execute(
        `insert into claim (id, created_at, updated_at, claim_ref, order_id, filed_by_company_id, status, claim_type,
           coverage_line, incident_date, incident_description, payee, flags, filed_at, idempotency_key, request_fingerprint)
         values (?, now(), now(), ?, ?, ?, 'SUBMITTED', 'MEDICAL_EXPENSES', 'MEDICAL_EXPENSES', current_date,
           'Acute mountain sickness', '{"type":"TRAVELLER"}', '["CURRENCY_CONVERSION"]', now(), ?, 'bulk')`,
        [id, `CLM-2030-${id.slice(0, 8)}`, orderId, partner.companyId, randomUUID()],
      );
      await copyRow(server, 'claim', id, 60_000, {
        claim_ref: `claim_ref || '-' || n`,
        idempotency_key: 'gen_random_uuid()',
      });
    },
  },
  getCommissionStatement: {
    path: () => `/api/external/v1/commission-statements/${periodOf(new Date())}`,
    // 50,000 lines of about 200 bytes each: about 10 MB.
    fill: async ({ orderId }) => {
      const [earned] = await server.orm.em
        .getConnection()
        .execute<Array<{ id: string }>>(`select id from commission_entry where order_id = ? and kind = 'EARNED'`, [
          orderId,
        ]);
      await copyRow(server, 'commission_entry', earned!.id, 50_000, { payment_ref: `payment_ref || '-' || n` });
    },
  },
};

async function idOf(table: string, column: string, value: string): Promise<string> {
  const [row] = await server.orm.em
    .getConnection()
    .execute<Array<{ id: string }>>(`select id from "${table}" where "${column}" = ?`, [value]);
  return row!.id;
}

async function paidAndCancelled(name: string): Promise<Exporter> {
  const partner = await newPartner(server, client, { name, commissionPercent: '10.00' });
  const order = await placeOrder(server, client, partner);
  const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
  expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
  const cancelled = await client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${order.orderRef}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: partner.token, headers: { 'idempotency-key': randomUUID() } },
  );
  expectStatus(cancelled, 200);
  return { partner, orderId: order.orderId, refundRef: cancelled.body.data.refund.refundRef as string };
}

/** An export on its own socket whose client reads nothing after the request; `closed` resolves with what it was sent. */
function unreadExport(path: string, partner: TestPartner) {
  const socket = net.connect(server.port, '127.0.0.1');
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/csv\r\nAuthorization: Bearer ${partner.token}\r\nConnection: close\r\n\r\n`,
  );
  socket.pause();
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { closed, drain: () => socket.resume() };
}

/** Sessions of this database inside a transaction, by pool: the export pool's, and every other but this query's own. */
async function sessionsInTransaction(): Promise<{ exportPool: number; requestPool: number }> {
  const [row] = await server.orm.em.getConnection().execute<Array<{ export_pool: string; request_pool: string }>>(
    `select count(*) filter (where application_name = 'streamed-answers') as export_pool,
      count(*) filter (where application_name <> 'streamed-answers' and state like 'idle in transaction%') as request_pool
    from pg_stat_activity where datname = current_database() and xact_start is not null and pid <> pg_backend_pid()`,
  );
  return { exportPool: Number(row?.export_pool ?? 0), requestPool: Number(row?.request_pool ?? 0) };
}

const exporters = new Map<string, Exporter>();

beforeAll(async () => {
  for (const operationId of csvOperations()) {
    const exporter = await paidAndCancelled(`CSV Export Treks ${operationId}`);
    await EXPORTS[operationId as OperationId]?.fill(exporter);
    exporters.set(operationId, exporter);
  }
}, 180_000);

describe('every operation that answers text/csv', () => {
  it('is one this test knows how to call (the document lists listOrders, listRefunds, getCommissionStatement, listClaims at least)', () => {
    expect(csvOperations()).toEqual(
      expect.arrayContaining(['listOrders', 'listRefunds', 'getCommissionStatement', 'listClaims']),
    );
    expect(csvOperations().filter((operationId) => !(operationId in EXPORTS))).toEqual([]);
  });

  it.each(csvOperations())(
    '%s reads on the export pool, refuses a second export of the company with 429 and Retry-After, and is cut when its client stops reading',
    async (operationId) => {
      const exporter = exporters.get(operationId)!;
      const path = EXPORTS[operationId as OperationId]!.path();
      // The export before this one has given its connection back.
      expect(await eventually(sessionsInTransaction, (open) => open.exportPool === 0)).toEqual({
        exportPool: 0,
        requestPool: 0,
      });
      const held = unreadExport(path, exporter.partner);
      const reading = await eventually(sessionsInTransaction, (open) => open.exportPool === 1, { timeoutMs: 30_000 });
      // The export holds a connection of its own pool, and no request connection waits inside a transaction for its reader.
      expect(reading).toEqual({ exportPool: 1, requestPool: 0 });

      const second = await client.op(operationId, 'GET', path, undefined, {
        token: exporter.partner.token,
        headers: { accept: 'text/csv' },
      });
      expectStatus(second, 429);
      expect(second.body.message).toBe(
        'At most 1 exports per company may run at once; finish reading one, then try again',
      );
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);

      // Unread for HTTP_STREAM_STALL_SECONDS, the export is cut: its connection goes, and its body ends short.
      await eventually(sessionsInTransaction, (open) => open.exportPool === 0, { timeoutMs: 30_000 });
      held.drain();
      const text = await held.closed;
      expect(text.slice(0, 12)).toBe('HTTP/1.1 200');
      expect(text).toMatch(/\r\ncontent-type: text\/csv/i);
      // A whole chunked body ends with its last, empty chunk; a cut one does not.
      expect(text.endsWith('\r\n0\r\n\r\n')).toBe(false);

      // Its slot given back, the company may export again (read whole).
      const again = await client.op(operationId, 'GET', path, undefined, {
        token: exporter.partner.token,
        headers: { accept: 'text/csv' },
      });
      expectStatus(again, 200);
    },
    90_000,
  );
});
