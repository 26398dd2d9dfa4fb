import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const OUT = path.join(ROOT, 'postman');

interface Request {
  name: string;
  request: { url: string; body?: { raw?: string } };
  event: Array<{ listen: string; script: { exec: string[] } }>;
}
interface Collection {
  event: Array<{ script: { exec: string[] } }>;
  item: Array<{ name: string; item: Request[] }>;
}

const collection = JSON.parse(fs.readFileSync(path.join(OUT, 'collection.json'), 'utf8')) as Collection;
const requestsOf = (folder: string) => collection.item.find((candidate) => candidate.name === folder)?.item ?? [];
const testsOf = (request: Request) =>
  request.event.find((event) => event.listen === 'test')?.script.exec.join('\n') ?? '';
const operationsOf = (folder: string) =>
  requestsOf(folder).map((request) => /pm\.test\('(\w+) answers/.exec(testsOf(request))?.[1]);

/** Every file of postman/ with its bytes, as committed. */
function snapshot(): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(OUT)
      .sort()
      .map((name) => [name, fs.readFileSync(path.join(OUT, name)).toString('base64')]),
  );
}

/** Issue 37: the Postman collection is committed, in folders, and `npm run postman` regenerates it in postman/ alone. */
describe('npm run postman: the committed collection', () => {
  it('is what the script writes, and the script writes nothing outside postman/, from wherever it is run', () => {
    const committed = snapshot();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'postman-cwd-'));
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/postman.mjs')], {
        cwd: elsewhere,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      expect(fs.readdirSync(elsewhere)).toEqual([]);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
    // A contract change that the committed collection does not follow fails here: run `npm run postman` and commit postman/.
    expect(snapshot()).toEqual(committed);
    expect(Object.keys(committed)).toEqual([
      'avatar.png',
      'collection.json',
      'passport.png',
      'sandbox.postman_environment.json',
      'signature.png',
    ]);
  });

  it('walks the life of a policy in folders: booking, payment, after the sale, claims, order book, webhooks, events', () => {
    expect(collection.item.map((folder) => folder.name)).toEqual([
      'Booking',
      'Payment',
      'After the sale',
      'Claims',
      'Order book',
      'Webhooks',
      'Events',
    ]);
    expect(operationsOf('Order book')).toEqual(expect.arrayContaining(['listOrders', 'getOrderGroup']));
    expect(operationsOf('Events')).toEqual(['listEvents', 'getEvent']);
  });

  it('pays through the sandbox helper: the customer pays, the status reads PAID with a policy number, the certificate downloads; the group is paid the same way', () => {
    expect(operationsOf('Payment')).toEqual([
      'payOrder',
      'getPaymentStatus',
      'setSandboxPaymentOutcome',
      'getPaymentStatus',
      'getOrderCertificate',
      'payGroup',
      'setSandboxPaymentOutcome',
      'getPaymentStatus',
    ]);
    const [, , captured, paid, certificate] = requestsOf('Payment');
    expect(JSON.parse(captured!.request.body?.raw ?? '{}')).toEqual({ outcome: 'CAPTURED' });
    expect(testsOf(paid!)).toContain("orderStatus: 'PAID'");
    expect(testsOf(paid!)).toContain('data.policyNumber');
    expect(testsOf(certificate!)).toContain('application/pdf');
  });

  it('after the sale: a free-look cancellation and its refund, a date change, a cover extended and its top-up paid, then on the test clock 20 days on a cancellation with the fee and a refund made FAILED, the group extended by one top-up (the cancelled member skipped), and the clock removed', () => {
    expect(operationsOf('After the sale')).toEqual([
      'previewOrderCancellation',
      'cancelOrder',
      'getRefund',
      'updateOrder',
      'previewOrderExtension',
      'extendOrder',
      'setSandboxPaymentOutcome',
      'setSandboxClock',
      'previewOrderCancellation',
      'cancelOrder',
      'setSandboxRefundOutcome',
      'listRefunds',
      'previewGroupExtension',
      'extendGroup',
      'setSandboxPaymentOutcome',
      'deleteSandboxClock',
    ]);
    const requests = requestsOf('After the sale');
    expect(testsOf(requests[0]!)).toContain("rule: 'FREE_LOOK'");
    expect(JSON.parse(requests[7]!.request.body?.raw ?? '{}')).toEqual({ today: '{{clockToday}}' });
    expect(testsOf(requests[8]!)).toContain("rule: 'CANCELLATION_FEE'");
    expect(JSON.parse(requests[10]!.request.body?.raw ?? '{}')).toEqual({ outcome: 'FAILED' });
    // The clock is 20 days after today's payments: past the 14-day free look, before the departure 30 days ahead.
    expect(collection.event.flatMap((event) => event.script.exec).join('\n')).toContain(
      "pm.collectionVariables.set('clockToday', new Date(ahead.getTime() - 10 * 86400000)",
    );
  });

  it('claims: on the test clock a USD claim is filed, asked about and answered, approved at the rate and paid through the sandbox desk, found under the order and in the CSV, and the clock removed', () => {
    expect(operationsOf('Claims')).toEqual([
      'setSandboxClock',
      'fileClaim',
      'setSandboxClaimDecision',
      'answerClaimInformationRequest',
      'setSandboxClaimDecision',
      'setSandboxClaimDecision',
      'listClaims',
      'listClaims',
      'deleteSandboxClock',
    ]);
    const requests = requestsOf('Claims');
    expect(JSON.parse(requests[1]!.request.body?.raw ?? '{}')).toMatchObject({
      incidentDate: '{{claimDay}}',
      items: [{ currency: 'USD' }],
    });
    expect(testsOf(requests[4]!)).toContain("decision.exchangeRate).to.equal('133.5000')");
    expect(testsOf(requests[7]!)).toContain('pm.response.text()');
  });

  it('webhooks: the sandbox sends a refund.failed to the registered endpoint, the delivery log shows it, then the endpoint is deleted', () => {
    expect(operationsOf('Webhooks')).toEqual([
      'createWebhookEndpoint',
      'testWebhookEndpoint',
      'sendSandboxEvent',
      'listWebhookDeliveries',
      'deleteWebhookEndpoint',
    ]);
    const [registered, , sent, log] = requestsOf('Webhooks');
    expect(JSON.parse(registered!.request.body?.raw ?? '{}').events).toContain('refund.failed');
    expect(JSON.parse(sent!.request.body?.raw ?? '{}')).toEqual({
      type: 'refund.failed',
      orderRef: '{{meilinOrderRef}}',
    });
    expect(testsOf(log!)).toContain("eventType: 'refund.failed'");
  });

  it('drives the sandbox through the API alone: no request goes to the hosted checkout page', () => {
    const urls = collection.item.flatMap((folder) => folder.item.map((request) => request.request.url));
    expect(urls.filter((url) => !url.startsWith('{{baseUrl}}/api/external/v1/'))).toEqual([]);
  });
});
