import { addDays } from '../../src/kernel/business-date';
import { createPartnerClient, sandboxCalls } from '../../clients/typescript/src';
import { declareDisruption } from '../../src/modules/catalogue';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { departure } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { placeOrder, RETURN_URL } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';

/**
 * The typed client under a weather disruption, as a partner's CI runs it in the sandbox: the
 * operator's Lukla disruption listed, a paid Everest Base Camp cover extended free on the test
 * clock (decision record 0102).
 */
// A database of its own: a declaration is sent to every company, other files' included.
const { server, client } = useTestServer({ ownDatabase: 'disruption_client' });
let partner: TestPartner;

beforeAll(async () => {
  partner = await newPartner(server, client, { name: 'Typed Lukla Treks' });
});

describe('listDisruptions and extendUnderDisruption of the typed client', () => {
  it('lists the Lukla disruption and extends a paid Everest Base Camp cover free under it, the same key answering the same extension', async () => {
    const lastDay = addDays(departure, 13);
    const { disruptionId } = await declareDisruption(
      server.orm.em,
      { area: 'LUKLA', startsOn: lastDay, endsOn: addDays(lastDay, 3), maxDays: 4, note: 'Lukla fogged in' },
      'operator-cli:test',
    );
    const partnerClient = createPartnerClient({
      baseUrl: server.url,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
    });
    const sandbox = sandboxCalls(partnerClient.api);
    const listed = await partnerClient.listDisruptions({ area: 'LUKLA', status: 'ACTIVE' });
    expect(listed.data?.data.map((disruption) => disruption.disruptionId)).toContain(disruptionId);

    const { orderRef } = await placeOrder(server, client, partner, {
      ctgId: CTGS.standard5500,
      routeId: ROUTES.everestBaseCamp,
      customRouteName: undefined,
    });
    const started = await partnerClient.pay(orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL });
    await sandbox.decidePayment(started.data!.data.paymentRef, 'CAPTURED');
    await sandbox.setClock(lastDay);
    try {
      const extended = await partnerClient.extendUnderDisruption(
        orderRef,
        { disruptionId, extraDays: 4 },
        { idempotencyKey: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' },
      );
      expect(extended.data?.data).toMatchObject({
        status: 'APPLIED',
        amountDue: 0,
        coverageEndDate: addDays(lastDay, 4),
        disruptionId,
      });
      const again = await partnerClient.extendUnderDisruption(
        orderRef,
        { disruptionId, extraDays: 4 },
        { idempotencyKey: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' },
      );
      expect(again.data?.data.amendmentRef).toBe(extended.data?.data.amendmentRef);
      const tooMany = await partnerClient.extendUnderDisruption(orderRef, { disruptionId, extraDays: 1 });
      expect(tooMany.error).toMatchObject({ code: 'DISRUPTION_DAYS_EXCEEDED' });
    } finally {
      await sandbox.resetClock();
    }
  });
});
