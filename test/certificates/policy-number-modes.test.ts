import { issuePolicyNumbers } from '../../src/modules/certificates';
import { policyNumberOf } from '../../src/modules/certificates/policy-numbers';
import { canonicalPolicyNumber } from '../../src/modules/certificates/rules/policy-standing';
import { isReference } from '../../src/modules/orders/rules/order-reference';
import { Order } from '../../src/modules/orders/entities/order';
import { asExtracted, readPdf } from '../support/certificate-pdf';
import { GLOSSARY } from '../../src/modules/certificates/glossary';
import { expectStatus } from '../support/expect-status';
import { serverBehind } from '../support/prism';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';

const { server, client } = useTestServer();
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Policy Number Modes Treks' });
});

describe('a policy number says whether it comes from a sandbox (decision record 0103)', () => {
  it('is SBX-POL-<year>-<seq> in a sandbox database and POL-<year>-<seq> in production, unchanged', () => {
    expect(policyNumberOf('sandbox', '2026', '87')).toBe('SBX-POL-2026-000087');
    expect(policyNumberOf('production', '2026', '87')).toBe('POL-2026-000087');
    // No mode recorded yet: never prefixed by mistake on what may be a production database.
    expect(policyNumberOf(undefined, '2026', '87')).toBe('POL-2026-000087');
  });

  it('is read in either form as a policy number, typed from paper too', () => {
    expect(isReference('POL', 'SBX-POL-2026-000087')).toBe(true);
    expect(isReference('POL', 'POL-2026-000087')).toBe(true);
    expect(isReference('POL', 'SBX-2026-000087')).toBe(false);
    expect(canonicalPolicyNumber('sbx pol 2026 000087')).toBe('SBX-POL-2026-000087');
    expect(canonicalPolicyNumber('SBX–POL–2026–000087')).toBe('SBX-POL-2026-000087');
    expect(canonicalPolicyNumber('pol 2026 000087')).toBe('POL-2026-000087');
  });

  it('when an order is paid on the sandbox, then its policy number carries SBX- everywhere: the order, the certificate and the verify page', async () => {
    const order = await placeOrder(server, client, agency);
    const started = await pay(client, agency, order.orderRef, { gateway: 'card_gateway' });
    const checkout = await submitCheckout(started.body.data.paymentUrl, APPROVE_CARD);
    expectStatus(await deliverCallback(client, checkout.callbackUrl!), 200);
    const detail = await client.op('getOrder', 'GET', `/api/external/v1/orders/${order.orderRef}`, undefined, {
      token: agency.token,
    });
    expectStatus(detail, 200);
    const policyNumber: string = detail.body.data.policyNumber;
    expect(policyNumber).toMatch(/^SBX-POL-\d{4}-\d{6,}$/);
    const certificate = await fetch(
      new URL(`/api/external/v1/orders/${order.orderRef}/certificate`, serverBehind(server.url)),
      { headers: { authorization: `Bearer ${agency.token}` } },
    );
    expect(certificate.headers.get('content-type')).toBe('application/pdf');
    const read = await readPdf(Buffer.from(await certificate.arrayBuffer()));
    // The label in English and Nepali, then the number (decision record 0104).
    expect(read.text).toContain(`Policy number · ${asExtracted(GLOSSARY.policyNumber.ne)} ${policyNumber}`);
    expect(read.text).toContain(`Policy ${policyNumber} · page 1 of`);
    const typed = policyNumber.toLowerCase().replace(/-/g, ' ');
    const page = await client.op<string>('verifyPolicy', 'GET', `/verify/${encodeURIComponent(typed)}`, undefined, {
      direct: true,
    });
    expectStatus(page, 200);
    expect(page.body).toContain(policyNumber);
  });

  it('when the database is a production one, then the same issuing gives an unprefixed number', async () => {
    const order = await placeOrder(server, client, agency);
    let issued: string | null = null;
    try {
      await server.orm.em.fork().transactional(async (tx) => {
        // Only inside this transaction, rolled back below: the database reads as a production one.
        await tx.execute(`update database_mode set mode = 'production'`);
        const pending = await tx.findOneOrFail(Order, { orderRef: order.orderRef });
        await issuePolicyNumbers(tx, [pending], new Date());
        issued = pending.policyNumber ?? null;
        throw new RolledBack();
      });
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
    expect(issued).toMatch(/^POL-\d{4}-\d{6,}$/);
    // Rolled back: the database is a sandbox one again, and the order still unpaid and unnumbered.
    const after = await server.orm.em.fork().findOneOrFail(Order, { orderRef: order.orderRef });
    expect(after.policyNumber).toBeNull();
  });
});

class RolledBack extends Error {}
