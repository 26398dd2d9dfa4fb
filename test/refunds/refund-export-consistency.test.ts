import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { copyRow } from '../support/bulk-orders';
import { expectContract } from '../support/contract';
import { csvRecords } from '../support/csv';
import { ORDERS } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Issue 52 item 9: the refunds CSV reads one snapshot through a cursor in key order, never pages
 * by offset, so refunds recorded while a file streams neither repeat rows nor push rows out of it.
 */
// A database of its own: the bulk refunds below must not reach other files' refund executors or invariant checks.
const { server, client } = useTestServer({ ownDatabase: 'refund_export' });
const REFUNDS = '/api/external/v1/refunds';
/** Fifteen batches of the export's reads: when its first bytes arrive it has most of them still to read. */
const EXISTING = 15_000;
const RECORDED_MEANWHILE = 2_000;

let partner: TestPartner;
let refundId: string;

beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Refund Export Treks' });
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
  const [row] = await server.orm.em
    .getConnection()
    .execute<Array<{ id: string }>>(`select id from refund where refund_ref = ?`, [
      cancelled.body.data.refund.refundRef,
    ]);
  refundId = row!.id;
  // Older copies, a second apart: newest first, the cancellation's refund leads the file.
  await copyRow(server, 'refund', refundId, EXISTING - 1, {
    refund_ref: `refund_ref || '-' || n`,
    cause: `'PROVIDER_REVERSAL'`,
    created_at: `created_at - make_interval(secs => n)`,
  });
}, 120_000);

/** The CSV of GET /refunds; `meanwhile` runs as soon as the first bytes arrive, the client reading nothing until it is done. */
function exportWhile(meanwhile: () => Promise<void>): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${server.url}${REFUNDS}`,
      { headers: { authorization: `Bearer ${partner.token}`, accept: 'text/csv' } },
      (response) => {
        const chunks: Buffer[] = [];
        let first = true;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (!first) return;
          first = false;
          response.pause();
          meanwhile().then(() => response.resume(), reject);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers['content-type'] ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

describe('GET /refunds with Accept: text/csv while refunds are recorded', () => {
  it('writes every refund that existed when it started exactly once, and none recorded meanwhile', async () => {
    const exported = await exportWhile(() =>
      // Newer than every refund in the file: an offset read after them would repeat the rows they push down.
      copyRow(server, 'refund', refundId, RECORDED_MEANWHILE, {
        refund_ref: `refund_ref || '-new-' || n`,
        cause: `'PROVIDER_REVERSAL'`,
        created_at: `now() + make_interval(secs => n)`,
      }),
    );
    expectStatus(exported, 200);
    await expectContract('listRefunds', 200, exported.body, exported.type);
    expect(exported.body.endsWith('\r\n')).toBe(true);
    const refs = csvRecords(exported.body).records.map((record) => record.refundRef ?? '');
    const repeated = refs.length - new Set(refs).size;
    expect({
      rows: refs.length,
      repeated,
      recordedMeanwhile: refs.filter((ref) => ref.includes('-new-')).length,
    }).toEqual({ rows: EXISTING, repeated: 0, recordedMeanwhile: 0 });
  }, 120_000);
});
