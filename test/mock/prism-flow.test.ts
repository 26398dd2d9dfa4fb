import { spawnSync, execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadSpecDocument } from '../../src/http/spec-document';
import { expectContract } from '../support/contract';
import { ApiClient } from '../support/http-client';
import { startPrism, type PrismProcess } from '../support/prism';

const ROOT = path.resolve(__dirname, '../..');
const V1 = '/api/external/v1';
const document = loadSpecDocument() as unknown as {
  components: { examples: Record<string, { value: unknown }> };
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { examples?: Record<string, { $ref?: string; value?: unknown }> }> } }>>;
};

/** A documented request example of an operation, resolved from the bundled document. */
function requestExample(pathName: string, method: string, name: string, mediaType = 'application/json'): any {
  const example = document.paths[pathName][method].requestBody?.content[mediaType]?.examples?.[name];
  if (!example) throw new Error(`no request example ${name} on ${method.toUpperCase()} ${pathName}`);
  return example.$ref ? document.components.examples[example.$ref.split('/').pop() as string].value : example.value;
}

let prism: PrismProcess;
let client: ApiClient;

beforeAll(async () => {
  prism = await startPrism('mock');
  client = new ApiClient(prism.url, true);
}, 60_000);
afterAll(() => prism.stop());

describe('npm run mock (Prism on the bundled document)', () => {
  it('runs the five-call booking flow with the documented examples', async () => {
    // 1. token
    const token = await client.op('issueToken', 'POST', `${V1}/auth/token`, requestExample(`${V1}/auth/token`, 'post', 'credential'));
    expect(token.status).toBe(200);
    const auth = { token: token.body.data.accessToken as string };

    // 2. quote
    const quote = await client.op('createQuote', 'POST', `${V1}/reference/quote`, requestExample(`${V1}/reference/quote`, 'post', 'byRoute'), auth);
    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({ quoteId: expect.any(String), ctgId: expect.any(String), totalAmount: expect.any(Number) });

    // 3. documents (multipart, the boundary set by fetch), then the traveller
    for (const documentType of ['AVATAR', 'PASSPORT', 'SIGNATURE']) {
      const form = new FormData();
      form.append('documentType', documentType);
      form.append('file', new Blob([Buffer.from('%PDF-1.7\n')], { type: 'application/pdf' }), `${documentType.toLowerCase()}.pdf`);
      const uploaded = await client.op('uploadDocument', 'POST', `${V1}/documents`, undefined, { ...auth, raw: form });
      expect(uploaded.status).toBe(201);
    }
    const travellers = await client.op('registerTravellers', 'POST', `${V1}/travellers`, requestExample(`${V1}/travellers`, 'post', 'one'), auth);
    expect(travellers.status).toBe(201);
    expect(travellers.body.data[0].touristId).toEqual(expect.any(String));

    // 4. order
    const order = await client.op('createOrders', 'POST', `${V1}/orders`, requestExample(`${V1}/orders`, 'post', 'single'), auth);
    expect(order.status).toBe(201);
    const orderRef = order.body.data.orderRef as string;
    expect(orderRef).toMatch(/^ORD-\d{4}-\d+$/);

    // 5. pay, then the authoritative payment status
    const pay = await client.op('payOrder', 'POST', `${V1}/orders/${orderRef}/pay`, requestExample(`${V1}/orders/{orderRef}/pay`, 'post', 'card'), {
      ...auth,
      headers: { 'Idempotency-Key': 'b9a3f0c2-5d41-4e8a-9f6b-2c7d8e1a3b40' },
    });
    expect(pay.status).toBe(200);
    expect(pay.body.data.paymentUrl).toEqual(expect.any(String));
    const status = await client.op('getPaymentStatus', 'GET', `${V1}/orders/${orderRef}/payment-status`, undefined, { ...auth, headers: { Prefer: 'example=paid' } });
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'SUCCESS' });
  });

  it('answers a call without a token with the documented 401, as the real server does', async () => {
    const response = await client.op('listRoutes', 'GET', `${V1}/reference/routes`);
    expect(response.status).toBe(401);
  });

  it('runs npm run example (the typed client) end to end against the mock', () => {
    execFileSync(path.join(ROOT, 'node_modules/typescript-native/bin/tsc'), ['-p', 'tsconfig.examples.json'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const run = spawnSync(process.execPath, ['dist/examples/partner-flow.js'], { cwd: ROOT, env: { PATH: process.env.PATH, BASE_URL: prism.url }, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean).map((line) => line.split(/\s+/)[0])).toEqual(['quote', 'document', 'document', 'document', 'traveller', 'order', 'pay', 'status']);
  });
});

describe('the documented examples', () => {
  it('are each valid for the operation and status they illustrate', async () => {
    // Prism serves them as they are; a partner prototyping against the mock must get contract-true data.
    const spec = loadSpecDocument() as unknown as { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { examples?: Record<string, { $ref?: string; value?: unknown }> }> }> }>> };
    let checked = 0;
    for (const operations of Object.values(spec.paths)) {
      for (const operation of Object.values(operations)) {
        if (!operation.operationId) continue;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          for (const example of Object.values(response.content?.['application/json']?.examples ?? {})) {
            const value = example.$ref ? document.components.examples[example.$ref.split('/').pop() as string].value : example.value;
            await expectContract(operation.operationId, Number(status), value);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
