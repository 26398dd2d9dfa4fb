import { createPartnerClient, sandboxCalls, type Schemas } from '../../clients/typescript/src';
import { paidOrder } from '../support/assistance-fixtures';
import { claimRequest, coverAround } from '../support/claim-fixtures';
import { expectContract } from '../support/contract';
import { expectStatus } from '../support/expect-status';
import { newPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';

const { server, client } = useTestServer();

describe('typed client: claims', () => {
  it('files a claim, a retry under its key answering the same claim; the sandbox desk approves and pays it; claims.get, claims.all and claims.exportCsv read it; a withdrawal answers the claim', async () => {
    const owner = await newPartner(server, client, { name: 'Claim Client Treks' });
    const partnerClient = createPartnerClient({
      baseUrl: server.url,
      clientId: owner.clientId,
      clientSecret: owner.clientSecret,
      sleep: async () => undefined,
    });
    const order = await paidOrder(server, client, owner);
    await coverAround(server, order.orderId);
    const body = claimRequest() as Schemas['ClaimRequest'];
    const idempotencyKey = '2f0c6a7e-31b4-4f8e-9d2a-6c1b5e7a9d30';
    const filed = await partnerClient.claims.file(order.orderRef, body, { idempotencyKey });
    expectStatus(filed, 201);
    await expectContract('fileClaim', 201, filed.data);
    const claimRef = filed.data!.data.claimRef;
    const again = await partnerClient.claims.file(order.orderRef, body, { idempotencyKey });
    expect(again.data?.data.claimRef).toBe(claimRef);
    expect(again.response.headers.get('idempotency-replayed')).toBe('true');
    const anotherKey = await partnerClient.claims.file(order.orderRef, body);
    expectStatus(anotherKey, 409);
    expect(anotherKey.error?.code).toBe('CLAIM_DUPLICATE_INVOICE');

    const sandbox = sandboxCalls(partnerClient.api);
    expectStatus(await sandbox.decideClaim(claimRef, { decision: 'APPROVED' }), 200);
    const paid = await sandbox.decideClaim(claimRef, { decision: 'PAID' });
    expectStatus(paid, 200);
    await expectContract('setSandboxClaimDecision', 200, paid.data);

    const read = await partnerClient.claims.get(claimRef);
    expectStatus(read, 200);
    await expectContract('getClaim', 200, read.data);
    // USD 420.00 at the sandbox's 133.50, less the 5,000.00 excess.
    expect(read.data?.data).toMatchObject({ status: 'PAID', payout: { amount: 51070, currency: 'NPR' } });

    const seen: string[] = [];
    for await (const claim of partnerClient.claims.all({ orderRef: order.orderRef })) seen.push(claim.claimRef);
    expect(seen).toEqual([claimRef]);

    const exported = await partnerClient.claims.exportCsv({ orderRef: order.orderRef });
    if (!exported.ok) throw new Error(`export refused: ${JSON.stringify(exported.error)}`);
    expect(exported.fileName).toMatch(/^claims-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await new Response(exported.stream).text();
    expect(text.split('\r\n')[1]).toMatch(new RegExp(`^${claimRef},${order.orderRef},`));

    const other = await partnerClient.claims.file(
      order.orderRef,
      claimRequest({ claimType: 'TRIP_CANCELLATION' }) as Schemas['ClaimRequest'],
    );
    expectStatus(other, 201);
    const withdrawn = await partnerClient.claims.withdraw(other.data!.data.claimRef, { reason: 'Filed by mistake' });
    expectStatus(withdrawn, 200);
    await expectContract('withdrawClaim', 200, withdrawn.data);
    expect(withdrawn.data?.data.status).toBe('WITHDRAWN');
  });
});
