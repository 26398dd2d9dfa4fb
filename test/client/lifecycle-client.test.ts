import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import {
  createPartnerClient,
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
  WebhookVerificationError,
  type Schemas,
  type WebhookEvent,
} from '../../clients/typescript/src';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { csvRecords } from '../support/csv';
import { departure } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { APPROVE_WALLET, deliverCallback, submitCheckout } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { expectStatus } from '../support/expect-status';

/** Issue 37: the typed client's helpers for booking one order or a group, group pay, the group read, the after-sale lists, and webhooks. */
const { server, client } = useTestServer({ env: { PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' } });
let partner: TestPartner;

const typedClient = () =>
  createPartnerClient({ baseUrl: server.url, clientId: partner.clientId, clientSecret: partner.clientSecret });

async function orderInput(): Promise<Schemas['OrderInput']> {
  return {
    touristId: await newTraveller(server, partner.companyId),
    ctgId: CTGS.standard3000,
    customRouteName: 'Kathmandu valley rim walk',
    departureDate: departure,
  };
}

beforeAll(async () => {
  partner = await newPartner(server, client);
});

describe('the typed client through the life of a group', () => {
  it('createOrder answers one Order and createOrderGroup one OrderGroup, each typed for what was asked; a repeated key answers the first answer', async () => {
    const partnerClient = typedClient();
    const single = await partnerClient.createOrder(await orderInput());
    expectStatus(single.response, 201);
    expect(single.data?.data.orderRef).toMatch(/^ORD-\d{4}-\d+$/);
    const key = '0b7c3f2e-9a1d-4e6b-8c5a-2f4d6e8a0b1c';
    const body = [await orderInput(), await orderInput()];
    const group = await partnerClient.createOrderGroup(body, { idempotencyKey: key });
    expect(group.data?.data.groupRef).toMatch(/^GRP-\d{4}-\d+$/);
    expect(group.data?.data.orders).toHaveLength(2);
    expect((await partnerClient.createOrderGroup(body, { idempotencyKey: key })).data?.data.groupRef).toBe(
      group.data?.data.groupRef,
    );
    // Asked for one order with an array body, the helper does not pretend: no data.
    expect((await partnerClient.createOrder(body as unknown as Schemas['OrderInput'])).data).toBeUndefined();
  });

  it('payGroup pays the group; getOrderGroup, paymentStatus, refunds.all, events.all and assistanceCases.all read what followed', async () => {
    const partnerClient = typedClient();
    const group = (await partnerClient.createOrderGroup([await orderInput(), await orderInput()])).data!.data;
    const started = await partnerClient.payGroup(group.groupRef, {
      gateway: 'wallet_gateway',
      returnUrl: 'https://partner.example.com/payments/complete',
    });
    expect(started.data?.data.paymentRef).toMatch(new RegExp(`^${group.groupRef}-`));
    expectStatus(
      await deliverCallback(client, (await submitCheckout(started.data!.data.paymentUrl, APPROVE_WALLET)).callbackUrl!),
      303,
    );

    const read = await partnerClient.getOrderGroup(group.groupRef);
    expect(read.data?.data.payment).toMatchObject({ status: 'PAID', paidOrders: 2, pendingOrders: 0 });
    const [first] = group.orders;
    expect((await partnerClient.paymentStatus(first!.orderRef)).data?.data).toMatchObject({
      orderStatus: 'PAID',
      groupRef: group.groupRef,
    });
    expect((await partnerClient.getOrder(first!.orderRef)).data?.data.orderRef).toBe(first!.orderRef);

    const preview = await partnerClient.previewCancellation(first!.orderRef);
    expect(preview.data?.data.rule).toBe('FREE_LOOK');
    const cancelled = await partnerClient.cancel(first!.orderRef, { reason: 'TRIP_CANCELLED' });
    const refundRef = cancelled.data?.data.refund?.refundRef;
    expect(refundRef).toMatch(/^RFD-/);
    const refunds: string[] = [];
    for await (const refund of partnerClient.refunds.all({ size: 1 })) refunds.push(refund.refundRef);
    expect(refunds).toEqual([refundRef]);
    expect((await partnerClient.refunds.get(refundRef!)).data?.data.orderRef).toBe(first!.orderRef);

    // The JSON page is typed as the page alone; the CSV has its own helper, a stream with its file name.
    const page = await partnerClient.refunds.list({ orderRef: first!.orderRef });
    expect(page.data?.data.content.map((refund) => refund.refundRef)).toEqual([refundRef]);
    const csv = await partnerClient.refunds.exportCsv({ orderRef: first!.orderRef });
    if (!csv.ok) throw new Error(`the refunds' CSV answered ${csv.response.status}`);
    expect(csv.fileName).toMatch(/^refunds-\d{4}-\d{2}-\d{2}\.csv$/);
    let text = '';
    for await (const chunk of Readable.fromWeb(csv.stream)) text += String(chunk);
    expect(csvRecords(text).records.map((record) => record.refundRef)).toEqual([refundRef]);
    const refusedCsv = await partnerClient.refunds.exportCsv({ orderRef: 'not-an-order' });
    expect(refusedCsv.ok).toBe(false);
    expectStatus(refusedCsv, 400);

    const types: string[] = [];
    let policyNumber: string | undefined;
    for await (const event of partnerClient.events.all({ size: 1, sortDir: 'asc' })) {
      types.push(event.type);
      // The payload is the webhook event of its type: order.paid's data carries the policy number, no cast.
      if (event.payload.type === 'order.paid' && event.payload.data.orderRef === first!.orderRef)
        policyNumber = event.payload.data.policyNumber;
    }
    expect(types).toEqual(expect.arrayContaining(['order.paid', 'order.cancelled']));
    expect(types.indexOf('order.paid')).toBeLessThan(types.indexOf('order.cancelled'));
    expect(policyNumber).toBe((await partnerClient.getOrder(first!.orderRef)).data?.data.policyNumber);
    const listed = (await partnerClient.events.list({ type: ['order.cancelled'] })).data!.data.content[0]!;
    const cancelledEvent = (await partnerClient.events.get(listed.eventId)).data!.data.payload;
    expect(cancelledEvent.type === 'order.cancelled' && cancelledEvent.data.orderRef).toBe(first!.orderRef);

    const cases: string[] = [];
    for await (const assistanceCase of partnerClient.assistanceCases.all()) cases.push(assistanceCase.caseRef);
    expect(cases).toEqual([]);
    expectStatus((await partnerClient.commissionStatements.list()).response, 200);
  });
});

describe('the typed client before the order', () => {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  it('quote, uploadDocument and registerTravellers (a repeated key answers the first travellers), then promos reach their operations', async () => {
    const partnerClient = typedClient();
    const quote = await partnerClient.quote({
      nationality: 'Germany',
      ages: [35],
      startDate: departure,
      duration: 16,
      routeId: ROUTES.everestBaseCamp,
    });
    expect(quote.data?.data.quoteStatus).toBe('ACTIVE');
    expect((await partnerClient.getQuote(quote.data!.data.quoteId)).data?.data.quoteId).toBe(quote.data!.data.quoteId);
    expectStatus((await partnerClient.listPackages({ sortBy: 'totalPrice' })).response, 200);
    const documents: Record<string, string> = {};
    for (const type of ['AVATAR', 'PASSPORT', 'SIGNATURE'] as const) {
      documents[type] = (
        await partnerClient.uploadDocument(new Blob([PNG], { type: 'image/png' }), `${type.toLowerCase()}.png`, type)
      ).data!.data.documentId;
    }
    const traveller: Schemas['TravellerInput'] = {
      email: 'sophie.keller@example.com',
      name: 'Sophie Keller',
      dateOfBirth: '1991-03-14',
      nationality: 'Germany',
      idType: 'PASSPORT',
      idNumber: 'C4R7T2K91',
      gender: 'FEMALE',
      phone: '+49 151 23456789',
      emergencyContactName: 'Markus Keller',
      emergencyContactPhone: '+49 170 9876543',
      emergencyContactEmail: 'markus.keller@example.com',
      emergencyContactRelation: 'Brother',
      avatarDocumentId: documents.AVATAR!,
      passportDocumentId: documents.PASSPORT!,
      signatureDocumentId: documents.SIGNATURE!,
    };
    const key = '5d1e7a3c-2b4f-4c8e-9a0d-6f1b3e5c7a9d';
    const registered = await partnerClient.registerTravellers([traveller], { idempotencyKey: key });
    expectStatus(registered.response, 201);
    const again = await partnerClient.registerTravellers([traveller], { idempotencyKey: key });
    expect(again.data?.data[0]?.touristId).toBe(registered.data?.data[0]?.touristId);
    const order = (
      await partnerClient.createOrder({
        touristId: registered.data!.data[0]!.touristId,
        ctgId: quote.data!.data.ctgId,
        quoteId: quote.data!.data.quoteId,
        routeId: ROUTES.everestBaseCamp,
        departureDate: departure,
      })
    ).data!.data;
    const refused = await partnerClient.promos.previewOnOrder(order.orderRef, 'NO-SUCH-CODE');
    expectStatus(refused.response, 400);
    expect(refused.error?.code).toBe('PROMO_CODE_INVALID');
  });
});

describe('webhooks.create of the typed client', () => {
  it('registers an endpoint under an Idempotency-Key: the same key again answers the first endpoint and its secret, a new call a new one', async () => {
    const partnerClient = typedClient();
    const body: Schemas['WebhookEndpointInput'] = {
      url: 'https://hooks.partner-a.example.com/pbs',
      events: ['order.paid'],
    };
    const key = '7e2a9c4b-1d3f-4b6a-8c0e-5f7a9b1d3e6c';
    const first = await partnerClient.webhooks.create(body, { idempotencyKey: key });
    expectStatus(first.response, 201);
    const again = await partnerClient.webhooks.create(body, { idempotencyKey: key });
    expect(again.data?.data).toMatchObject({
      endpointId: first.data!.data.endpointId,
      secret: first.data!.data.secret,
    });
    const another = await partnerClient.webhooks.create(body);
    expectStatus(another.response, 201);
    expect(another.data?.data.endpointId).not.toBe(first.data!.data.endpointId);
    expect((await partnerClient.webhooks.list()).data?.data).toHaveLength(2);
  });
});

describe('verifyWebhook', () => {
  const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
  const event = {
    id: 'evt_5f0c3a9e8d7b4c21a6e9f0b1c2d3e4f5',
    type: 'order.paid',
    timestamp: '2030-09-20T08:41:37.519Z',
    data: { orderRef: 'ORD-2030-000142', policyNumber: 'POL-2030-000087' },
  };
  const rawBody = JSON.stringify(event);
  const signed = () => {
    const at = new Date();
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(event.id, at, rawBody),
    };
    return headers;
  };

  it('accepts what the official standardwebhooks library signs, and answers the event typed by its type', () => {
    const verified: WebhookEvent = verifyWebhook(secret, signed(), rawBody);
    expect(verified.type === 'order.paid' ? verified.data.policyNumber : null).toBe('POL-2030-000087');
  });

  it('refuses a changed body, another secret, a missing header and an old timestamp', () => {
    expect(() => verifyWebhook(secret, signed(), rawBody.replace('000087', '000088'))).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      verifyWebhook(`whsec_${Buffer.from('another secret entirely, 32 b!!!').toString('base64')}`, signed(), rawBody),
    ).toThrow(WebhookVerificationError);
    const { 'webhook-id': _id, ...withoutId } = signed();
    expect(() => verifyWebhook(secret, withoutId, rawBody)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, signed(), rawBody, () => Date.now() + 10 * 60_000)).toThrow(
      WebhookVerificationError,
    );
  });

  it('knows every event type the contract documents', () => {
    const documented = Object.keys(
      (JSON.parse(readFileSync('generated/openapi.json', 'utf8')) as { webhooks: Record<string, unknown> }).webhooks,
    );
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual(documented.sort());
  });
});
