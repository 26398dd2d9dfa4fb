/**
 * The whole life of two policies, driven from a partner's code against a sandbox server, with the
 * typed client and its sandbox helpers only (no checkout page to scrape, no waiting for time):
 *
 *   book -> pay by card (the customer pays: sandbox outcome CAPTURED) -> the test clock past the
 *   14-day free look -> cancel with the 10 % fee -> the card refund waits PENDING until the
 *   provider refuses it (FAILED) -> the clock back -> a second order paid and moved to another
 *   date -> an assistance case on it driven by the desk to AUTHORISED and COMPLETED -> a third
 *   order whose payment the provider leaves pending, then captures -> a synthetic test event,
 *   marked `sandbox: true` and left out of `GET /events?sandbox=false`,
 *
 * while a webhook receiver on this machine verifies every delivery with the official
 * `standardwebhooks` library.
 *
 *   npm start                           # a sandbox server with its own PostgreSQL, in another terminal
 *   npm run example:lifecycle           # against http://localhost:3000 with a demo partner
 *   BASE_URL=... CLIENT_ID=... CLIENT_SECRET=... npm run example:lifecycle
 *
 * Sandbox only: the helpers answer 404 elsewhere. The receiver listens on 127.0.0.1, which a
 * sandbox accepts as a webhook endpoint (WEBHOOK_ALLOW_PRIVATE_ENDPOINTS, on for `npm start`).
 * It exits non-zero at the first step that fails, printing the status and the error body.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { createPartnerClient, sandboxCalls, type Schemas } from '@partner-booking/client';

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';
const client = createPartnerClient({
  baseUrl,
  // Sandbox demo partner (README). A real integration reads these from its secret store.
  clientId: process.env.CLIENT_ID ?? 'demo-everest-trails',
  clientSecret: process.env.CLIENT_SECRET ?? 'sandbox-secret-everest-trails',
});
const { api } = client;
const sandbox = sandboxCalls(api);
const RETURN_URL = 'https://partner.example.com/payments/complete';

// A 1x1 PNG: the service checks the bytes, so a document must be a real image.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Every step either returns its data or stops the run with what the service said. */
function need<T>(step: string, result: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (result.data) return result.data.data;
  console.error(`${step} failed with HTTP ${result.response.status}:`, JSON.stringify(result.error, null, 2));
  process.exit(1);
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface Verified {
  id: string;
  type: string;
  /** Only on an event sent with POST /sandbox/events: `true`. */
  sandbox?: boolean;
  data: Record<string, unknown>;
}

/** Our webhook endpoint: verifies each delivery's signature on the raw body before reading it, answers 204. */
class Receiver {
  readonly events: Verified[] = [];
  private verifier?: Webhook;
  private waiting: Array<() => void> = [];
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      try {
        if (!this.verifier) throw new Error('no secret yet');
        const event = this.verifier.verify(Buffer.concat(chunks).toString('utf8'), headers) as Verified;
        // At least once: a retry carries the same webhook-id.
        if (!this.events.some((seen) => seen.id === event.id)) this.events.push(event);
        response.writeHead(204).end();
        for (const wake of this.waiting.splice(0)) wake();
      } catch {
        response.writeHead(400).end('signature does not verify');
      }
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  trust(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  /** Waits (30 s at most) for a verified event of `type` that `matches` (and has the id `eventId` when given). */
  async next(type: string, matches: (data: Record<string, unknown>) => boolean, eventId?: string): Promise<Verified> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = this.events.find((event) => event.type === type && matches(event.data) && (eventId === undefined || event.id === eventId));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no verified ${type} within 30 s (have: ${this.events.map((event) => event.type).join(', ')})`);
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        setTimeout(resolve, 500);
      });
    }
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A traveller with its three documents, then an order for them from a fresh quote. */
async function book(name: string, startDate: string, routeId: string): Promise<Schemas['Order']> {
  const quote = need('POST /reference/quote', await api.POST('/api/external/v1/reference/quote', { body: { nationality: 'Germany', ages: [34], startDate, duration: 16, routeId } }));
  const upload = async (documentType: Schemas['DocumentType']) =>
    need(`POST /documents (${documentType})`, await client.uploadDocument(new Blob([PNG], { type: 'image/png' }), `${documentType.toLowerCase()}.png`, documentType)).documentId;
  const [avatarDocumentId, passportDocumentId, signatureDocumentId] = [await upload('AVATAR'), await upload('PASSPORT'), await upload('SIGNATURE')];
  const [traveller] = need('POST /travellers', await api.POST('/api/external/v1/travellers', {
    body: [{
      email: `${name.toLowerCase().replace(/\s+/g, '.')}@example.com`, name, dateOfBirth: '1991-03-14', nationality: 'Germany', idType: 'PASSPORT',
      idNumber: `C${randomUUID().slice(0, 8).toUpperCase()}`, gender: 'FEMALE', phone: '+49 151 23456789', emergencyContactName: 'Markus Keller',
      emergencyContactPhone: '+49 170 9876543', emergencyContactEmail: 'markus.keller@example.com', emergencyContactRelation: 'Brother',
      avatarDocumentId, passportDocumentId, signatureDocumentId,
    }],
  }));
  if (!traveller) throw new Error('POST /travellers answered with no traveller');
  const created = need<Schemas['Order'] | Schemas['OrderGroup']>('POST /orders', await api.POST('/api/external/v1/orders', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: { touristId: traveller.touristId, ctgId: quote.ctgId, quoteId: quote.quoteId, routeId, departureDate: startDate },
  }));
  if (!('orderRef' in created)) throw new Error('POST /orders with an object body answered with a group');
  console.log(`booked    ${created.orderRef}: ${name}, ${quote.totalAmount} ${quote.currency} from ${startDate}`);
  return created;
}

/** The provider captures a payment it had left pending. */
async function payNowDecided(orderRef: string, paymentRef: string): Promise<void> {
  const status = need('POST /sandbox/payments/{paymentRef}/outcome', await sandbox.decidePayment(paymentRef, 'CAPTURED'));
  if (status.orderStatus !== 'PAID') throw new Error(`${orderRef} is ${status.orderStatus} after the capture`);
  console.log(`paid      ${orderRef}: ${status.amount} ${status.currency} after pending at the provider, policy ${status.policyNumber}`);
}

/** The customer pays on the sandbox gateway (no page: the helper plays the customer). */
async function payNow(orderRef: string, gateway: Schemas['Gateway']): Promise<Schemas['PaymentStatus']> {
  const started = need('POST /orders/{orderRef}/pay', await client.pay(orderRef, { gateway, returnUrl: RETURN_URL }));
  const status = need('POST /sandbox/payments/{paymentRef}/outcome', await sandbox.decidePayment(started.paymentRef, 'CAPTURED'));
  if (status.orderStatus !== 'PAID') throw new Error(`${orderRef} is ${status.orderStatus} after the capture`);
  console.log(`paid      ${orderRef}: ${status.amount} ${status.currency} by ${status.paymentMethod}, policy ${status.policyNumber}`);
  return status;
}

async function main(): Promise<void> {
  const receiver = new Receiver();
  const endpoint = need('POST /webhook-endpoints', await client.webhooks.create({ url: await receiver.start(), events: ['*'] }));
  receiver.trust(endpoint.secret);
  console.log(`webhooks  ${endpoint.endpointId}: every event, verified with standardwebhooks`);
  try {
    const { realToday } = need('GET /sandbox/clock', await sandbox.readClock());
    const routes = need('GET /reference/routes', await api.GET('/api/external/v1/reference/routes', { params: { query: { search: 'Everest Base Camp' } } }));
    const routeId = routes.content[0]?.routeId;
    if (!routeId) throw new Error('the sandbox catalogue has no Everest Base Camp route');

    // The first policy: booked and paid today, cancelled after the free look, its card refund refused.
    const first = await book('Sophie Keller', addDays(realToday, 40), routeId);
    await payNow(first.orderRef, 'card_gateway');
    await receiver.next('order.paid', (data) => data.orderRef === first.orderRef);
    const later = need('PUT /sandbox/clock', await sandbox.setClock(addDays(realToday, 15)));
    console.log(`clock     ${later.today} (real ${later.realToday}): 15 days after the payment`);
    const preview = need('POST /orders/{orderRef}/cancellation/preview', await client.previewCancellation(first.orderRef));
    if (preview.rule !== 'CANCELLATION_FEE') throw new Error(`expected the fee after the free look, the preview says ${preview.rule}`);
    const cancelled = need('POST /orders/{orderRef}/cancellation', await client.cancel(first.orderRef, { reason: 'TRIP_CANCELLED', note: 'Lukla flights grounded' }));
    const refund = cancelled.refund;
    if (!refund) throw new Error('a paid order was cancelled without a refund');
    console.log(`cancelled ${first.orderRef}: ${preview.rule}, ${refund.amount} back, ${refund.cancellationFee} kept, refund ${refund.refundRef} ${refund.status}`);
    const refused = need('POST /sandbox/refunds/{refundRef}/outcome', await sandbox.answerRefund(refund.refundRef, 'FAILED'));
    console.log(`refund    ${refused.refundRef}: ${refused.status}`);
    need('DELETE /sandbox/clock', await sandbox.resetClock());
    await receiver.next('order.cancelled', (data) => data.orderRef === first.orderRef);
    await receiver.next('refund.failed', (data) => data.refundRef === refund.refundRef);

    // The second policy: paid by card, then the trek moves a week later.
    const second = await book('Anna Keller', addDays(realToday, 30), routeId);
    await payNow(second.orderRef, 'card_gateway');
    const moved = need('PATCH /orders/{orderRef}', await client.changeDepartureDate(second.orderRef, addDays(second.departureDate, 7)));
    console.log(`moved     ${moved.orderRef}: cover ${moved.coverageStartDate} to ${moved.coverageEndDate}`);
    await receiver.next('order.amended', (data) => data.orderRef === second.orderRef);

    // An assistance case on the second policy, which the sandbox desk authorises and completes.
    const opened = need('POST /orders/{orderRef}/assistance-cases', await client.openAssistanceCase(second.orderRef, {
      category: 'ALTITUDE_SICKNESS', requestedService: 'HELICOPTER_EVACUATION', altitudeMeters: 4940,
      location: { latitude: 27.9881, longitude: 86.925, placeName: 'Lobuche lodge, Everest Base Camp trek' },
      summary: 'Severe headache and vomiting since last night; suspected HACE. Cannot walk down.',
      reporter: { name: 'Pemba Sherpa', phone: '+977 9841 234567', role: 'GUIDE' },
    }));
    console.log(`case      ${opened.caseRef}: ${opened.status}`);
    for (const decision of ['UNDER_REVIEW', 'AUTHORISED', 'COMPLETED'] as const) {
      const moved = need('POST /sandbox/assistance-cases/{caseRef}/decision', await sandbox.decideCase(opened.caseRef, { decision }));
      const guarantee = moved.guarantee ? `, guarantee ${moved.guarantee.guaranteeRef} up to ${moved.guarantee.costLimit} ${moved.guarantee.currency}` : '';
      console.log(`case      ${moved.caseRef}: ${moved.status}${guarantee}`);
    }
    await receiver.next('assistance_case.updated', (data) => data.caseRef === opened.caseRef && data.status === 'COMPLETED');

    // A third order: the provider leaves its payment pending, then captures it.
    const third = await book('Lena Keller', addDays(realToday, 50), routeId);
    const started = need('POST /orders/{orderRef}/pay', await client.pay(third.orderRef, { gateway: 'card_gateway', returnUrl: RETURN_URL }));
    const pending = need('POST /sandbox/payments/{paymentRef}/outcome', await sandbox.decidePayment(started.paymentRef, 'PENDING'));
    const looked = need('GET /orders/{orderRef}/payment-status', await client.paymentStatus(third.orderRef));
    if (pending.orderStatus !== 'PENDING' || looked.paymentStatus !== 'INITIATED') throw new Error(`${third.orderRef} is ${looked.orderStatus}/${looked.paymentStatus} while pending at the provider`);
    console.log(`pending   ${third.orderRef}: ${looked.orderStatus}, payment ${looked.paymentStatus} (undecided at the provider)`);
    await payNowDecided(third.orderRef, started.paymentRef);

    // A synthetic event: marked, and left out of the real events.
    const sent = need('POST /sandbox/events', await sandbox.sendEvent('refund.failed', first.orderRef));
    const synthetic = await receiver.next('refund.failed', (data) => data.refundRef === refund.refundRef, sent.eventId);
    const realOnly = need('GET /events', await api.GET('/api/external/v1/events', { params: { query: { sandbox: false, size: 100 } } }));
    if (realOnly.content.some((event) => event.eventId === sent.eventId)) throw new Error('GET /events?sandbox=false listed a synthetic event');
    console.log(`event     ${sent.eventId}: ${sent.type} sandbox=${String(synthetic.sandbox)}, left out of GET /events?sandbox=false`);

    for (const event of receiver.events) console.log(`webhook   ${event.type} ${String(event.data.orderRef ?? '')} (${event.id}) verified`);
  } finally {
    await client.webhooks.remove(endpoint.endpointId);
    await receiver.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
