import { kathmanduToday } from '../../src/kernel/business-date';
import { testToday } from '../../src/kernel/business-today';
import type { RefundRequest } from '../../src/modules/payments/providers/gateway';
import { newPartner, type TestPartner } from '../support/partners';
import { paidThroughSandbox, cancelledByOwner } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';
import { eventually } from '../support/eventually';

/**
 * The refund pass a cancellation kicks (after its commit, in this process) is the process's work,
 * not the request's: it never runs on the test clock of the company whose request kicked it
 * (issue 52 item 17). The sandbox card gateway's refund call records the clock it runs on.
 */
const { server, client } = useTestServer({ backgroundJobs: true });
let agency: TestPartner;

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Kick Clock Treks Pvt. Ltd.' });
});

afterAll(() => jest.restoreAllMocks());

describe('the refund pass a cancellation kicks', () => {
  it("when a company on a test clock cancels a paid order, then the kicked refund pass runs on the real date, not on that company's clock", async () => {
    const gateway = server.gateways.sandbox.get('card_gateway')!;
    const original = gateway.refund.bind(gateway);
    const clocks: Array<{ refundRef: string; today: string | undefined }> = [];
    jest.spyOn(gateway, 'refund').mockImplementation((request: RefundRequest) => {
      clocks.push({ refundRef: request.refundRef, today: testToday() });
      return original(request);
    });
    const { order } = await paidThroughSandbox(server, client, agency);
    // The real date as the clock: every rule answers alike, only where the date comes from differs.
    expectStatus(
      await client.op(
        'setSandboxClock',
        'PUT',
        '/api/external/v1/sandbox/clock',
        { today: kathmanduToday() },
        {
          token: agency.token,
        },
      ),
      200,
    );
    const cancelled = await cancelledByOwner(client, agency, order.orderRef);
    expectStatus(cancelled, 200);
    const { refundRef } = cancelled.body.data.refund;
    const call = await eventually(
      () => clocks.find((each) => each.refundRef === refundRef),
      (found) => found !== undefined,
    );
    expect(call).toEqual({ refundRef, today: undefined });
  });
});
