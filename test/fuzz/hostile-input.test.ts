import fc from 'fast-check';
import { loadSpecDocument } from '../../src/kernel/http/spec-document';
import type { RunningServer } from '../../src/server';
import { expectContract, expectSchema } from '../support/contract';
import { FILES, uploadedDocumentId } from '../support/documents';
import { at, first } from '../support/elements';
import { forkServer, NO_WRITE_LIMITS, type ServerProcess } from '../support/built-server';
import { ApiClient, type WireJson } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { pay, placeGroup, placeOrder } from '../support/payment-fixtures';
import { newCode, newSalesCompany } from '../support/promo-fixtures';
import { CTGS, ROUTES } from '../support/catalogue-fixtures';
import { startTestServer } from '../support/test-server';
import { newTraveller } from '../support/traveller-fixtures';
import { operationsOf, pageRequests, requestsFor, type FuzzRequest, type KnownIdentifiers } from './request-model';

/**
 * Hostile input, generated from generated/openapi.json for every operation: valid requests,
 * requests with one defect, and plain hostile ones (SQL and script payloads, traversal in
 * identifiers, deep and malformed JSON, broken multipart, wrong content types, bad tokens).
 * Sent to a live server on the run's PostgreSQL. Nothing may answer 5xx, every error body must be
 * exactly one of the three error shapes, and every success must match the contract.
 *
 * FUZZ_SEED replays a run; FUZZ_RUNS_PER_OPERATION scales it (CI: >= 20,000 requests in all).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS_PER_OPERATION ?? 950);
const MINIMUM_REQUESTS = Number(process.env.FUZZ_MINIMUM_REQUESTS ?? 20_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 12);

const document = loadSpecDocument() as WireJson;
let server: RunningServer;
let target: ServerProcess;
let client: ApiClient;
let own: TestPartner;
let foreign: TestPartner;
let ids: KnownIdentifiers;
let paymentUrls: string[];

beforeAll(async () => {
  // The in-process server migrates the database and gives the fixtures their ORM; the fuzzer
  // talks to the built server in its own process (`npm run test:fuzz` builds first), so that
  // generating and checking requests and answering them use both cores. Limits are off: the
  // fuzzer must reach the handlers, not the 429 in front of them (429 is shape 2 anyway).
  server = await startTestServer();
  target = await forkServer('main', {
    ...NO_WRITE_LIMITS,
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
  });
  client = new ApiClient(target.url);
  own = await newPartner(server, client, { name: 'Fuzz Own Treks' });
  foreign = await newPartner(server, client, { name: 'Fuzz Foreign Treks' });
  const refsOf = async (partner: TestPartner) => {
    const orders = [await placeOrder(server, client, partner), await placeOrder(server, client, partner)];
    const group = await placeGroup(server, client, partner, 2);
    return {
      orderRef: [...orders, ...group.orders].flatMap((o) => [o.orderRef, o.orderNumber, o.orderId]),
      groupRef: [group.groupRef],
    };
  };
  const byCard = await placeOrder(server, client, own);
  const byWallet = await placeOrder(server, client, own);
  paymentUrls = [
    (await pay(client, own, byCard.orderRef, { gateway: 'card_gateway' })).body.data.paymentUrl,
    (await pay(client, own, byWallet.orderRef, { gateway: 'wallet_gateway' })).body.data.paymentUrl,
  ];
  const seller = await newSalesCompany(server);
  ids = {
    own: await refsOf(own),
    foreign: await refsOf(foreign),
    ownToken: own.token,
    foreignToken: foreign.token,
    clientIds: [own.clientId, foreign.clientId],
    documentIds: [await uploadedDocumentId(client, own.token, 'PASSPORT', FILES.png)],
    touristIds: [await newTraveller(server, own.companyId), await newTraveller(server, foreign.companyId)],
    ctgIds: Object.values(CTGS),
    routeIds: Object.values(ROUTES),
    promoCodes: [await newCode(server, seller), await newCode(server, seller, { usageLimit: 1 })],
  };
}, 120_000);

afterAll(async () => {
  if (target) {
    target.child.kill('SIGTERM');
    await target.exited;
  }
  await server?.stop();
});

interface Finding {
  request: string;
  status: number;
  problem: string;
}

/** Which of the three shapes an error answer must have, from its status and operation (the error shapes of spec/openapi.yaml). */
function expectErrorShape(request: FuzzRequest, status: number, body: WireJson): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new Error(`error body is not a JSON object: ${JSON.stringify(body)?.slice(0, 200)}`);
  if (status === 401) {
    expectSchema('AuthError', body);
    if ('timestamp' in body || 'status' in body)
      throw new Error('a 401 carries shape 1 only (no timestamp, no status)');
    return;
  }
  if ('success' in body) {
    if (request.operationId !== 'uploadDocument' || ![400, 413].includes(status))
      throw new Error(`shape 3 outside POST /documents 400/413`);
    expectSchema('UploadError', body);
    return;
  }
  expectSchema('ApiError', body);
  if (body.status !== status) throw new Error(`shape 2 repeats status ${body.status}, HTTP said ${status}`);
  // Markers only the server could have written (messages may echo the caller's own hostile input).
  if (
    /\bat .+\.(ts|js):\d+|node_modules|syntax error at or near|violates .*constraint|relation ".+" does not exist|DriverException|QueryFailed|mikro-orm|from "[a-z_]+" as "[a-z0-9]+"/i.test(
      JSON.stringify(body),
    )
  ) {
    throw new Error('error body leaks a stack trace or SQL');
  }
}

async function send(
  request: FuzzRequest,
): Promise<{ status: number; body: unknown; raw: string; contentType: string }> {
  // fetch cannot send a GET with a body; such requests go without it.
  const payload = request.method === 'GET' ? undefined : request.body;
  const response = await fetch(new URL(request.path, target.url), {
    method: request.method,
    headers: request.headers,
    body: payload,
    redirect: 'manual',
  });
  const raw = await response.text();
  let body: unknown = raw;
  if ((response.headers.get('content-type') ?? '').includes('json') && raw.length > 0) {
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
  }
  return { status: response.status, body, raw, contentType: response.headers.get('content-type') ?? '' };
}

let transportRetries = 0;

/** Operations whose refusals are HTML pages for a person, not error shapes for a program. */
const HTML_PAGES = new Set(['sandboxCheckout', 'verifyPolicy', 'handleProviderReturn']);

/**
 * The operation that answers what was sent. The router ignores a trailing slash: an empty
 * identifier (`GET /orders/`) is the collection's request, answered by the collection's operation
 * (GET /orders, the order book), not the item's. And fetch resolves dot segments, `%2e%2e`
 * included, before sending: `GET /orders/groups/%2e%2e` goes out as `GET /orders`.
 */
function answeringOperation(request: FuzzRequest): string {
  const asked = request.path.split('?')[0] ?? '';
  const sent = new URL(request.path, 'http://fuzz.invalid').pathname;
  if (sent === asked && !asked.endsWith('/')) return request.operationId;
  const pathname = sent.replace(/\/$/, '');
  const answering = operationsOf(document).find(
    (operation) =>
      operation.method.toUpperCase() === request.method.toUpperCase() && operation.pathTemplate === pathname,
  );
  return answering?.operationId ?? request.operationId;
}

/** Requests outside the document (see pageRequests): no documented answer to check a success against. */
const PAGES = new Set(['sandboxCheckout', 'unknownPath']);

/**
 * A keep-alive connection can be closed by the server just as the client starts the next request
 * on it (seen once in about 100,000 requests, on a 2 MiB multipart body, and not reproducible with
 * the same seed): the request then fails in the client before any answer exists. Such a request
 * is sent once more on a fresh connection and counted; a second transport failure is a finding.
 */
async function sendRetryingTransportFailure(request: FuzzRequest): ReturnType<typeof send> {
  try {
    return await send(request);
  } catch (error) {
    if (!(error instanceof TypeError && error.message === 'fetch failed')) throw error;
    transportRetries += 1;
    return send(request);
  }
}

function describeRequest(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length}): ${String(request.body).slice(0, 300)}`;
  return `${request.method} ${request.path.slice(0, 300)} [${request.kind}] headers ${JSON.stringify(request.headers).slice(0, 200)}${body}`;
}

test('no generated request, valid or hostile, gets a 5xx or an error body outside the three shapes', async () => {
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThanOrEqual(20);
  const requests: FuzzRequest[] = [];
  operations.forEach((operation, index) => {
    requests.push(
      ...fc.sample(requestsFor(document, operation, ids), { numRuns: RUNS_PER_OPERATION, seed: SEED + index }),
    );
  });
  // The sandbox checkout pages and unknown paths are in no document, but reachable all the same.
  requests.push(
    ...fc.sample(pageRequests(paymentUrls), { numRuns: RUNS_PER_OPERATION, seed: SEED + operations.length }),
  );
  // Interleave operations so that concurrent requests mix, as real traffic does.
  requests.sort((a, b) => ((a.path.length * 31 + a.kind.length) % 97) - ((b.path.length * 31 + b.kind.length) % 97));

  // Issue 30: how many bodies carry a NUL or lone-surrogate key, a lone surrogate, a separator or a bidi control.
  const issue30 = countIssue30Bodies(requests);

  const findings: Finding[] = [];
  const statuses = new Map<string, number>();
  const costs = new Map<string, number>();
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = at(requests, next++, 'the requests');
      let status = 0;
      const sentAt = performance.now();
      try {
        const answer = await sendRetryingTransportFailure(request);
        status = answer.status;
        const tally = `${request.operationId} ${status}`;
        statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
        if (status >= 500) throw new Error(`server error: ${answer.raw.slice(0, 300)}`);
        // The checkout pages, the public verification page and a refused provider return answer their own refusals (an
        // unknown policy, too many lookups) as HTML pages; only a JSON answer has a shape to keep.
        const htmlPage = HTML_PAGES.has(request.operationId) && typeof answer.body === 'string';
        if (status >= 400 && !htmlPage) expectErrorShape(request, status, answer.body);
        else if (
          !PAGES.has(request.operationId) &&
          (status < 300 || (status >= 400 && htmlPage) || request.operationId === 'handlePaymentCallback')
        )
          await expectContract(answeringOperation(request), status, answer.body, answer.contentType);
      } catch (error) {
        findings.push({ request: describeRequest(request), status, problem: (error as Error).message.slice(0, 600) });
      }
      const kind = first(request.kind.split('+'));
      costs.set(kind, (costs.get(kind) ?? 0) + performance.now() - sentAt);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;

  const table = [...statuses.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `  ${k}: ${n}`)
    .join('\n');
  console.log(
    `fuzz seed ${SEED}: ${requests.length} requests in ${seconds.toFixed(1)} s (${Math.round(requests.length / seconds)}/s), ${findings.length} findings, ${transportRetries} transport retries\n${table}`,
  );
  if (process.env.FUZZ_COSTS)
    console.log(
      [...costs.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([k, ms]) => `  ${k}: ${Math.round(ms)} ms`)
        .join('\n'),
    );
  if (findings.length > 0)
    console.log(
      `first findings (replay with FUZZ_SEED=${SEED}):\n${findings
        .slice(0, 15)
        .map((f) => `- ${f.status} ${f.problem}\n    ${f.request}`)
        .join('\n')}`,
    );

  console.log(`bodies with text PostgreSQL or a document cannot take (issue 30): ${JSON.stringify(issue30)}`);
  expect(Object.values(issue30).every((n) => n > 0)).toBe(true);
  expect(requests.length).toBeGreaterThanOrEqual(Math.min(MINIMUM_REQUESTS, RUNS_PER_OPERATION * 20));
  expect(findings).toEqual([]);
}, 600_000);

/** Requests whose JSON body holds each kind of text issue 30 found answered 500 or reshaping documents. */
function countIssue30Bodies(requests: FuzzRequest[]): Record<string, number> {
  const kinds: Record<string, RegExp> = {
    nulKey: /\\u0000[^"]*":/,
    loneSurrogateKey: /\\ud[89a-f][0-9a-f]{2}[^"]*":/i,
    loneSurrogate: /\\ud[89a-f][0-9a-f]{2}/i,
    separator: /[\u2028\u2029]/,
    bidiControl: /[\u202A-\u202E\u2066-\u2069]/,
  };
  const counts = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, 0]));
  for (const { body } of requests) {
    if (typeof body !== 'string') continue;
    for (const [kind, pattern] of Object.entries(kinds)) if (pattern.test(body)) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
