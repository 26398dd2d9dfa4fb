import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import { expectSchema } from '../support/contract';
import { newPartner, type TestPartner } from '../support/partners';
import { placeOrder } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { WebhookReceiver } from '../support/webhook-receiver';
import { webhookApi } from '../webhooks/webhook-api';
import { expectStatus } from '../support/expect-status';

/**
 * POST /sandbox/events (DESIGN "Testing an integration"): a partner sends itself an event of any
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

  it("when an order of the company is named, then the event carries that order's facts and is listed among its events", async () => {
    const order = await placeOrder(server, client, agency);
    const response = await send(agency, { type: 'refund.failed', orderRef: order.orderRef });
    expectStatus(response, 202);
    const { eventId } = response.body.data;
    await receiver.waitFor(() => receiver.unique().some((event) => event.id === eventId));
    const event = receiver.unique().find((each) => each.id === eventId)!;
    expectSchema('RefundFailedEvent', event);
    expect(event.data).toMatchObject({
      orderId: order.orderId,
      orderRef: order.orderRef,
      orderNumber: order.orderNumber,
      orderStatus: 'PENDING',
      groupRef: null,
      currency: 'NPR',
    });
    const listed = await client.op('getEvent', 'GET', `/api/external/v1/events/${eventId}`, undefined, {
      token: agency.token,
    });
    expectStatus(listed, 200);
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
