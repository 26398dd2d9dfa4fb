import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import { expectSchema } from '../support/contract';
import { newPartner, type TestPartner } from '../support/partners';
import { CompanyType } from '../../src/modules/partners/entities/company';
import { WebhookEvent } from '../../src/modules/webhooks/entities/webhook-event';
import { placeOrder, paidThroughSandbox, cancelledByOwner } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from '../webhooks/webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * POST /sandbox/events (decision record 0083): a partner sends itself an event of any
 * type, signed and delivered through the outbox like every event, with the payload its type
 * documents. The receiver verifies each delivery with the official `standardwebhooks` library;
 * client.op checks every answer against the spec's schema for its status.
 */
const EVENTS = '/api/external/v1/sandbox/events';
// Background jobs on: the events reach the endpoint through the webhook relay and delivery workers.
const { server, client } = useTestServer({ backgroundJobs: true });
const webhooks = webhookApi(client);
const receiver = new WebhookReceiver();
let agency: TestPartner;
let stranger: TestPartner;

/** Each event type with the component schema the contract's `webhooks` documents its body with. */
const document = loadSpecDocument() as unknown as {
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
};
const EVENT_SCHEMAS = Object.entries(document.webhooks).map(
  ([type, item]) => [type, item.post.requestBody.content['application/json']!.schema.$ref.split('/').pop()!] as const,
);

beforeAll(async () => {
  agency = await newPartner(server, client, { name: 'Event Sending Treks Pvt. Ltd.' });
  stranger = await newPartner(server, client, { name: 'Stranger Event Treks' });
  const created = await webhooks.create(agency, { url: await receiver.start(), events: ['*'] });
  if (created.status !== 201) throw new Error(`endpoint not registered: ${JSON.stringify(created.body)}`);
  receiver.secret = created.body.data.secret;
});

afterAll(() => receiver.stop());

const send = (caller: TestPartner, body: Record<string, unknown>) =>
  client.op('sendSandboxEvent', 'POST', EVENTS, body, { token: caller.token });

const eventCount = () => server.orm.em.fork().count(WebhookEvent, { companyId: agency.companyId });

async function eventRecord(eventId: string) {
  const record = await client.op('getEvent', 'GET', `/api/external/v1/events/${eventId}`, undefined, {
    token: agency.token,
  });
  expectStatus(record, 200);
  return record.body.data as { payload: { data: Record<string, unknown> } & Record<string, unknown> };
}

/** An order paid by card through the sandbox helper, then cancelled: its refund waits PENDING for the refund helper. */
async function paidAndCancelled(owner: TestPartner, options: { travelCompanyIds?: string[] } = {}) {
  const { order, paymentRef } = await paidThroughSandbox(server, client, owner, 'card_gateway', options);
  const cancelled = await cancelledByOwner(client, owner, order.orderRef);
  expectStatus(cancelled, 200);
  return { order, paymentRef, refundRef: cancelled.body.data.refund.refundRef as string };
}

describe('POST /sandbox/events', () => {
  it('when any event type is asked for, then a signed event of that type in its documented shape reaches the endpoint, with the eventId answered', async () => {
    const sent: Array<{ type: string; schema: string; eventId: string }> = [];
    for (const [type, schema] of EVENT_SCHEMAS) {
      const response = await send(agency, { type });
      expectStatus(response, 202);
      expect(response.body.data.type).toBe(type);
      sent.push({ type, schema, eventId: response.body.data.eventId });
    }
    await receiver.waitFor(() => sent.every(({ eventId }) => receiver.unique().some((event) => event.id === eventId)));
    for (const { type, schema, eventId } of sent) {
      const event = receiver.unique().find((each) => each.id === eventId)!;
      expect(event.type).toBe(type);
      expectSchema(schema, event);
    }
    expect(receiver.rejected).toBe(0);
  });

  it("when a cancelled paid order of the company is named, then the refund event carries that order's real refund and payment, marked sandbox, and is listed among its events", async () => {
    const { order, paymentRef, refundRef } = await paidAndCancelled(agency);
    const response = await send(agency, { type: 'refund.failed', orderRef: order.orderRef });
    expectStatus(response, 202);
    const { eventId } = response.body.data;
    await receiver.waitFor(() => receiver.unique().some((event) => event.id === eventId));
    const event = receiver.unique().find((each) => each.id === eventId)!;
    expectSchema('RefundFailedEvent', event);
    expect(event).toMatchObject({ sandbox: true });
    expect(event.data).toMatchObject({
      orderId: order.orderId,
      orderRef: order.orderRef,
      orderNumber: order.orderNumber,
      orderStatus: 'CANCELLED',
      groupRef: null,
      currency: 'NPR',
      refundRef,
      paymentRef,
      gateway: 'CARD_GATEWAY',
      cause: 'CANCELLATION',
      status: 'PENDING',
      amount: order.totalAmount,
    });
    const listed = await client.op('getEvent', 'GET', `/api/external/v1/events/${eventId}`, undefined, {
      token: agency.token,
    });
    expectStatus(listed, 200);
    expect(listed.body.data.payload).toMatchObject({ sandbox: true });
  });

  it('when a payment event names an order, then it carries its real latest payment', async () => {
    const { order, paymentRef } = await paidAndCancelled(agency);
    const response = await send(agency, { type: 'payment.failed', orderRef: order.orderRef });
    expectStatus(response, 202);
    const event = (await eventRecord(response.body.data.eventId)).payload;
    expectSchema('PaymentFailedEvent', event);
    expect(event.data).toMatchObject({
      orderRef: order.orderRef,
      paymentRef,
      paymentMethod: 'CARD_GATEWAY',
      paymentAmount: order.totalAmount,
      amount: order.totalAmount,
    });
  });

  it('when a refund or payment event names an order without one, then 409 SANDBOX_EVENT_FACTS_MISSING and nothing is made up', async () => {
    const order = await placeOrder(server, client, agency);
    const before = await eventCount();
    const refund = await send(agency, { type: 'refund.failed', orderRef: order.orderRef });
    expectStatus(refund, 409);
    expect(refund.body).toMatchObject({
      code: 'SANDBOX_EVENT_FACTS_MISSING',
      message: `Order ${order.orderRef} has no refund: a refund.failed about it would be made up; cancel it after payment first, or send the event without orderRef for sample data`,
    });
    const payment = await send(agency, { type: 'order.paid', orderRef: order.orderRef });
    expectStatus(payment, 409);
    expect(payment.body.code).toBe('SANDBOX_EVENT_FACTS_MISSING');
    expect(await eventCount()).toBe(before);
  });

  it('when events are listed with sandbox=false, then the synthetic ones are left out and the real ones kept; sandbox=true lists only the synthetic', async () => {
    const { order } = await paidAndCancelled(agency);
    const sent = await send(agency, { type: 'order.cancelled', orderRef: order.orderRef });
    expectStatus(sent, 202);
    const list = async (sandbox: boolean) => {
      const page = await client.op(
        'listEvents',
        'GET',
        `/api/external/v1/events?sandbox=${sandbox}&size=100`,
        undefined,
        { token: agency.token },
      );
      expectStatus(page, 200);
      return page.body.data.content as Array<{ eventId: string; type: string; payload: Record<string, unknown> }>;
    };
    const real = await list(false);
    expect(real.map((event) => event.eventId)).not.toContain(sent.body.data.eventId);
    // The order's real order.paid and order.cancelled are there, without the marker.
    const ofOrder = real.filter((event) => (event.payload.data as { orderRef?: string }).orderRef === order.orderRef);
    expect(ofOrder.map((event) => event.type).sort()).toEqual(['order.cancelled', 'order.paid']);
    for (const event of real) expect(event.payload).not.toHaveProperty('sandbox');
    const synthetic = await list(true);
    expect(synthetic.map((event) => event.eventId)).toContain(sent.body.data.eventId);
    for (const event of synthetic) expect(event.payload).toMatchObject({ sandbox: true });
  });

  it('when a listed agency names an order it may read, then it sends itself the event about that order', async () => {
    const listedAgency = await newPartner(server, client, {
      name: 'Listed Event Agency',
      type: CompanyType.TravelAgency,
    });
    const { order, refundRef } = await paidAndCancelled(agency, { travelCompanyIds: [listedAgency.companyId] });
    const response = await send(listedAgency, { type: 'refund.succeeded', orderRef: order.orderRef });
    expectStatus(response, 202);
    const record = await client.op(
      'getEvent',
      'GET',
      `/api/external/v1/events/${response.body.data.eventId}`,
      undefined,
      {
        token: listedAgency.token,
      },
    );
    expectStatus(record, 200);
    expect(record.body.data.payload).toMatchObject({ sandbox: true, data: { orderRef: order.orderRef, refundRef } });
  });

  it("when another company's order is named, then 404 and nothing is sent", async () => {
    const theirs = await placeOrder(server, client, stranger);
    const response = await send(agency, { type: 'order.paid', orderRef: theirs.orderRef });
    expectStatus(response, 404);
    expect(response.body.code).toBe('NOT_FOUND');
  });

  it('when the type is not an event type, then 400 naming the field', async () => {
    const response = await send(agency, { type: 'order.exploded' });
    expectStatus(response, 400);
    expect(Object.keys(response.body.details.fieldErrors)).toEqual(['type']);
  });
});
