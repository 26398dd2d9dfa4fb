import { loadCertificateFonts } from '../../src/modules/certificates';
import { printableStatement } from '../../src/modules/commissions';
import { periodOf } from '../../src/modules/commissions/rules/commission-period';
import { statementPageCount } from '../../src/modules/commissions/rules/statement-pages';
import { copyRow } from '../support/bulk-orders';
import { expectStatus } from '../support/expect-status';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';

/**
 * Issue 52 item 15: a long month's PDF costs seconds of CPU, so a company may ask for only so many
 * in a window (as for certificates), and it renders from rows read first: no request connection
 * is held while it renders or while its client reads.
 */
// A database of its own: the bulk commission lines below must not reach other files' invariant checks.
const { server, client } = useTestServer({
  ownDatabase: 'statement_pdf',
  env: { RATE_LIMIT_STATEMENT_PDF_PER_COMPANY: '2' },
});
const STATEMENTS = '/api/external/v1/commission-statements';
const thisMonth = periodOf(new Date());
/** Lines in the month: many batches of the statement's reads, so a render that read as it went would still be reading. */
const LINES = 20_000;

let seller: TestPartner;
let other: TestPartner;

async function withPaidOrder(name: string): Promise<{ partner: TestPartner; orderId: string }> {
  const partner = await newPartner(server, client, { name, commissionPercent: '10.00' });
  const order = await placeOrder(server, client, partner);
  const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
  expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
  return { partner, orderId: order.orderId };
}

beforeAll(async () => {
  const paid = await withPaidOrder('Long Month Treks');
  seller = paid.partner;
  other = (await withPaidOrder('Other Month Treks')).partner;
  const [earned] = await server.orm.em
    .getConnection()
    .execute<Array<{ id: string }>>(`select id from commission_entry where order_id = ? and kind = 'EARNED'`, [
      paid.orderId,
    ]);
  await copyRow(server, 'commission_entry', earned!.id, LINES - 1, { payment_ref: `payment_ref || '-' || n` });
}, 120_000);

const statement = (partner: TestPartner, accept: string) =>
  client.op('getCommissionStatement', 'GET', `${STATEMENTS}/${thisMonth}`, undefined, {
    token: partner.token,
    headers: { accept },
  });

/** Sessions of this database still inside the statement's read (its cursor), other than this query's own. */
async function statementReads(): Promise<number> {
  const [row] = await server.orm.em.getConnection().execute<Array<{ open: string }>>(
    `select count(*) as open from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        and xact_start is not null and query like '%statement_lines%'`,
  );
  return Number(row?.open ?? 0);
}

describe('GET /commission-statements/{period} as application/pdf', () => {
  it('is counted per company: beyond RATE_LIMIT_STATEMENT_PDF_PER_COMPANY a 429 with Retry-After; the JSON statement and another company are not held up', async () => {
    expectStatus(await statement(seller, 'application/pdf'), 200);
    expectStatus(await statement(seller, 'application/pdf'), 200);
    const third = await statement(seller, 'application/pdf');
    expectStatus(third, 429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

    expectStatus(await statement(seller, 'application/json'), 200);
    expectStatus(await statement(other, 'application/pdf'), 200);
  }, 120_000);

  it('has read every line and given its connection back before the first page is rendered', async () => {
    const pdf = await printableStatement(server.orm.em.fork(), seller.companyId, thisMonth, {
      issuer: 'Himalayan Trek Insurance',
      currency: 'NPR',
      fonts: loadCertificateFonts(),
    });
    // Nothing of the PDF read yet: no connection is still inside the statement's read.
    expect(await statementReads()).toBe(0);
    const chunks: Buffer[] = [];
    for await (const chunk of pdf) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toContain('%%EOF');
    // Every line was rendered: as many pages as the month's lines fill.
    expect(bytes.toString('latin1').match(/\/Type \/Page\b/g)?.length).toBe(statementPageCount(LINES));
  }, 120_000);
});
