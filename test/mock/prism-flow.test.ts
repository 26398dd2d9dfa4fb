import { spawnSync, execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import { expectContract } from '../support/contract';
import { ApiClient, type WireJson } from '../support/http-client';
import { startPrism, type PrismProcess } from '../support/prism';
import { expectStatus } from '../support/expect-status';

const ROOT = path.resolve(__dirname, '../..');
const V1 = '/api/external/v1';
const document = loadSpecDocument() as unknown as {
  components: { examples: Record<string, { value: unknown }> };
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content: Record<string, { examples?: Record<string, { $ref?: string; value?: unknown }> }> } }
    >
  >;
};

/** A documented request example of an operation, resolved from the bundled document. */
function requestExample(pathName: string, method: string, name: string, mediaType = 'application/json'): WireJson {
  const example = document.paths[pathName]?.[method]?.requestBody?.content[mediaType]?.examples?.[name];
  if (!example) throw new Error(`no request example ${name} on ${method.toUpperCase()} ${pathName}`);
  return example.$ref ? sharedExample(example.$ref) : example.value;
}

/** The value of the shared example (components/examples) a `$ref` names. */
function sharedExample(ref: string): unknown {
  const shared = document.components.examples[ref.split('/').pop() ?? ''];
  if (!shared) throw new Error(`no shared example ${ref}`);
  return shared.value;
}

/** The demo company code of src/modules/promos/demo-promo-codes.ts that the order examples use. */
const DEMO_COMPANY_CODE = 'HIMALAYA10';
/** The documented placeholder for the service's own host in examples (see the Tools section of the spec). */
const SANDBOX_PLACEHOLDER_HOST = 'sandbox.partner-api.example.com';

/** POST /documents with a small file of the given type; the mock answers from its examples. */
function upload(documentType: string, options: { token: string; headers?: Record<string, string> }) {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append(
    'file',
    new Blob([Buffer.from('%PDF-1.7\n')], { type: 'application/pdf' }),
    `${documentType.toLowerCase()}.pdf`,
  );
  return client.op('uploadDocument', 'POST', `${V1}/documents`, undefined, { ...options, raw: form });
}

let prism: PrismProcess;
let client: ApiClient;

beforeAll(async () => {
  prism = await startPrism('mock');
  client = new ApiClient(prism.url, true);
}, 60_000);
afterAll(() => prism.stop());

describe('npm run mock (Prism on the bundled document)', () => {
  it('runs the five-call flow on values the mock returned, and the examples agree with each other', async () => {
    // Only the partner's own input comes from the request examples (who, where, when); every id,
    // reference and date the next call needs is taken from the previous answer, as a partner would.
    const token = await client.op(
      'issueToken',
      'POST',
      `${V1}/auth/token`,
      requestExample(`${V1}/auth/token`, 'post', 'credential'),
    );
    const auth = { token: token.body.data.accessToken as string };

    const quote = (
      await client.op(
        'createQuote',
        'POST',
        `${V1}/reference/quote`,
        requestExample(`${V1}/reference/quote`, 'post', 'byRoute'),
        auth,
      )
    ).body.data;
    expect(quote.quoteStatus).toBe('ACTIVE');
    // A quote a partner reads today must still be valid, and the trip it prices must lie ahead.
    expect(Date.parse(quote.validUntil)).toBeGreaterThan(Date.now() + 365 * 24 * 3600 * 1000);
    expect(quote.startDate > quote.validUntil.slice(0, 10)).toBe(true);

    const documentIds: Record<string, string> = {};
    for (const documentType of ['AVATAR', 'PASSPORT', 'SIGNATURE']) {
      const uploaded = await upload(documentType, {
        ...auth,
        headers: { Prefer: `example=${documentType.toLowerCase()}` },
      });
      expect(uploaded.body.data.documentType).toBe(documentType);
      documentIds[documentType] = uploaded.body.data.documentId;
    }
    const { visaDocumentId: _noVisaUploaded, ...person } = requestExample(`${V1}/travellers`, 'post', 'one')[0];
    const registered = await client.op(
      'registerTravellers',
      'POST',
      `${V1}/travellers`,
      [
        {
          ...person,
          avatarDocumentId: documentIds.AVATAR,
          passportDocumentId: documentIds.PASSPORT,
          signatureDocumentId: documentIds.SIGNATURE,
        },
      ],
      auth,
    );
    expectStatus(registered, 201);
    const traveller = registered.body.data[0];
    expect(traveller).toMatchObject({
      avatarDocumentId: documentIds.AVATAR,
      passportDocumentId: documentIds.PASSPORT,
      signatureDocumentId: documentIds.SIGNATURE,
    });

    const orderBody = {
      touristId: traveller.touristId,
      ctgId: quote.ctgId,
      routeId: quote.routeId,
      departureDate: quote.startDate,
      quoteId: quote.quoteId,
      promoCode: DEMO_COMPANY_CODE,
    };
    const created = await client.op('createOrders', 'POST', `${V1}/orders`, orderBody, auth);
    expectStatus(created, 201);
    const order = created.body.data;
    expect(order).toMatchObject({
      quoteId: quote.quoteId,
      departureDate: quote.startDate,
      promoCodes: { companyPromoCode: DEMO_COMPANY_CODE },
    });
    expect(order.traveller.touristId).toBe(traveller.touristId);
    expect(order.package.ctgId).toBe(quote.ctgId);

    const pay = await client.op(
      'payOrder',
      'POST',
      `${V1}/orders/${order.orderRef}/pay`,
      { gateway: 'card_gateway', returnUrl: 'https://partner.example.com/payments/complete' },
      {
        ...auth,
        headers: { 'Idempotency-Key': 'c0b4a1d3-6e52-4f9b-8a7c-3d8e9f2b4c51' },
      },
    );
    expectStatus(pay, 200);
    expect(pay.body.data.paymentRef.startsWith(`${order.orderRef}-`)).toBe(true);
    expect(new URL(pay.body.data.paymentUrl).host).toBe(SANDBOX_PLACEHOLDER_HOST);

    for (const example of ['notInitiated', 'initiated', 'paid', 'refundPending']) {
      const status = await client.op(
        'getPaymentStatus',
        'GET',
        `${V1}/orders/${order.orderRef}/payment-status`,
        undefined,
        { ...auth, headers: { Prefer: `example=${example}` } },
      );
      expect(status.body.data.orderRef).toBe(order.orderRef);
      if (example !== 'notInitiated') expect(status.body.data.paymentRef).toBe(pay.body.data.paymentRef);
    }
  });

  it('says what is wrong with an invalid request in the sl-violations header (docs/development.md: seeing what the mock found wrong)', async () => {
    const token = await client.op(
      'issueToken',
      'POST',
      `${V1}/auth/token`,
      requestExample(`${V1}/auth/token`, 'post', 'credential'),
    );
    const response = await client.call(
      'POST',
      `${V1}/reference/quote`,
      {
        nationality: 'Germany',
        ages: [40],
        startDate: '2031-10-05',
        duration: 14,
        endDate: '2031-10-18',
        maxAltitude: 5364,
      },
      { token: token.body.data.accessToken },
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    const violations = JSON.parse(String(response.headers.get('sl-violations'))) as Array<{ message: string }>;
    expect(violations.length).toBeGreaterThan(0);
  });

  it('answers a call without a token with the documented 401, as the real server does', async () => {
    const response = await client.op('listRoutes', 'GET', `${V1}/reference/routes`);
    expectStatus(response, 401);
  });

  it('runs npm run example (the typed client) end to end against the mock', () => {
    // Against the packed client, as a partner installs it (scripts/example-client.mjs).
    execFileSync('npm', ['run', '-s', 'example:build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const run = spawnSync(process.execPath, ['dist/examples/partner-flow.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, BASE_URL: prism.url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(
      run.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['quote', 'document', 'document', 'document', 'traveller', 'order', 'pay', 'status']);
  });
});

describe('the documented examples', () => {
  it('are each valid for the operation and status they illustrate', async () => {
    // Prism serves them as they are; a partner prototyping against the mock must get contract-true data.
    const spec = loadSpecDocument() as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId?: string;
            responses?: Record<
              string,
              { content?: Record<string, { examples?: Record<string, { $ref?: string; value?: unknown }> }> }
            >;
          }
        >
      >;
    };
    let checked = 0;
    for (const operations of Object.values(spec.paths)) {
      for (const operation of Object.values(operations)) {
        if (!operation.operationId) continue;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          for (const example of Object.values(response.content?.['application/json']?.examples ?? {})) {
            const value = example.$ref ? sharedExample(example.$ref) : example.value;
            await expectContract(operation.operationId, Number(status), value);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
