import { createPartnerClient } from '../../clients/typescript/src';
import { expectContract } from '../support/contract';
import { newPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { caseRequest, paidOrder } from '../support/assistance-fixtures';
import { expectStatus } from '../support/expect-status';

const { server, client } = useTestServer();

describe('typed client: assistance cases', () => {
  it('opens a case with the desk phone in the answer, and a retry under its key answers the same case instead of a 409', async () => {
    const owner = await newPartner(server, client);
    const partnerClient = createPartnerClient({
      baseUrl: server.url,
      clientId: owner.clientId,
      clientSecret: owner.clientSecret,
      sleep: async () => undefined,
    });
    const order = await paidOrder(server, client, owner);
    const body = caseRequest() as Parameters<typeof partnerClient.openAssistanceCase>[1];
    const idempotencyKey = '6b1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const opened = await partnerClient.openAssistanceCase(order.orderRef, body, { idempotencyKey });
    expectStatus(opened, 201);
    await expectContract('openAssistanceCase', 201, opened.data);
    expect(opened.data?.data).toMatchObject({ status: 'RECEIVED', desk: { phone: '+977 1 4000 000' } });
    const again = await partnerClient.openAssistanceCase(order.orderRef, body, { idempotencyKey });
    expect(again.data?.data.caseRef).toBe(opened.data?.data.caseRef);
    const anotherKey = await partnerClient.openAssistanceCase(order.orderRef, body);
    expectStatus(anotherKey, 409);
  });
});
