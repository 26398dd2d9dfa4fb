/**
 * The whole booking flow of a partner backend, with the typed client (clients/typescript):
 * token -> quote -> three documents -> traveller -> order -> pay -> payment-status.
 *
 *   npm run example                      # against http://localhost:3000 with a demo partner
 *   BASE_URL=https://sandbox.example.com CLIENT_ID=... CLIENT_SECRET=... npm run example
 *   POLL_SECONDS=300 npm run example     # then keep polling payment-status while you pay in the browser
 *
 * It exits non-zero at the first step that fails, printing the status and the error body.
 */
import { createPartnerClient, type Schemas } from '@partner-booking/client';

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';
const pollSeconds = Number(process.env.POLL_SECONDS ?? '0');
const client = createPartnerClient({
  baseUrl,
  // Sandbox demo partner (README). A real integration reads these from its secret store.
  clientId: process.env.CLIENT_ID ?? 'demo-everest-trails',
  clientSecret: process.env.CLIENT_SECRET ?? 'sandbox-secret-everest-trails',
});
const { api } = client;

const EVEREST_BASE_CAMP = '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18';

// A 1x1 PNG: the service checks the bytes, so a document must be a real image (or PDF for a passport).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Every step either returns its data or stops the flow with what the service said. */
function need<T>(step: string, result: { data?: { data: T }; error?: unknown; response: Response }): T {
  if (result.data) return result.data.data;
  console.error(`${step} failed with HTTP ${result.response.status}:`, JSON.stringify(result.error, null, 2));
  process.exit(1);
}

/** A departure date 30 days ahead, as a Nepal business date. */
function departureDate(): string {
  const inKathmandu = new Date(Date.now() + (5 * 60 + 45) * 60_000 + 30 * 86_400_000);
  return inKathmandu.toISOString().slice(0, 10);
}

async function main(): Promise<void> {
  const startDate = departureDate();

  // Steps 1 and 2: the client takes the token itself on the first call.
  const quote = need(
    'POST /reference/quote',
    await api.POST('/api/external/v1/reference/quote', {
      body: { nationality: 'Germany', ages: [34], startDate, duration: 16, routeId: EVEREST_BASE_CAMP },
    }),
  );
  console.log(`quote     ${quote.quoteId}: ${quote.ctgName}, ${quote.totalAmount} ${quote.currency} for ${quote.durationDays} days`);

  // Step 3: three documents, then the traveller that uses them.
  const upload = async (documentType: Schemas['DocumentType']) => {
    const document = need(`POST /documents (${documentType})`, await client.uploadDocument(new Blob([PNG], { type: 'image/png' }), `${documentType.toLowerCase()}.png`, documentType));
    console.log(`document  ${document.documentId}: ${documentType}`);
    return document.documentId;
  };
  const [avatarDocumentId, passportDocumentId, signatureDocumentId] = [await upload('AVATAR'), await upload('PASSPORT'), await upload('SIGNATURE')];

  const [traveller] = need(
    'POST /travellers',
    await api.POST('/api/external/v1/travellers', {
      body: [
        {
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
          avatarDocumentId,
          passportDocumentId,
          signatureDocumentId,
        },
      ],
    }),
  );
  if (!traveller) throw new Error('POST /travellers answered with no traveller');
  console.log(`traveller ${traveller.touristId}: ${traveller.name}`);

  // Step 4: the order, from the quote. POST /orders has no idempotency key: never retry it blindly.
  const created = need<Schemas['Order'] | Schemas['OrderGroup']>(
    'POST /orders',
    await api.POST('/api/external/v1/orders', {
      body: { touristId: traveller.touristId, ctgId: quote.ctgId, quoteId: quote.quoteId, routeId: EVEREST_BASE_CAMP, departureDate: startDate },
    }),
  );
  // An object body creates one order (an array would create a group).
  if (!('orderRef' in created)) throw new Error('POST /orders with an object body answered with a group');
  const order = created;
  console.log(`order     ${order.orderRef}: ${order.status}`);

  // Step 5: pay (retries reuse the Idempotency-Key), send the customer to paymentUrl, then ask for the status.
  const payment = need('POST /orders/{orderRef}/pay', await client.pay(order.orderRef, { gateway: 'card_gateway', returnUrl: 'https://partner.example.com/payments/complete' }));
  console.log(`pay       open ${payment.paymentUrl} in a browser to pay (sandbox card 4242 4242 4242 4242)`);

  const deadline = Date.now() + pollSeconds * 1000;
  for (let wait = 2_000; ; wait = Math.min(wait * 2, 30_000)) {
    const status = need(
      'GET /orders/{orderRef}/payment-status',
      await api.GET('/api/external/v1/orders/{orderRef}/payment-status', { params: { path: { orderRef: order.orderRef } } }),
    );
    console.log(`status    order ${status.orderStatus}, payment ${status.paymentStatus}`);
    // Only payment-status is proof of payment; the browser's return to returnUrl is not.
    if (status.paymentStatus === 'SUCCESS' || Date.now() + wait > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
