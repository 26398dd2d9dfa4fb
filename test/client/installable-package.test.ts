import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RunningServer } from '../../src/server';
import { ROUTES } from '../support/catalogue-fixtures';
import { last } from '../support/elements';
import { ApiClient } from '../support/http-client';
import { newPartner, type TestPartner } from '../support/partners';
import { startTestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');
const CLIENT_DIR = path.join(ROOT, 'clients/typescript');

/** npm with the project's quiet settings off: a failing pack or install must say why. */
function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--loglevel=error', '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** `npm pack` of a directory into `destination`; returns the tarball's path. */
function pack(directory: string, destination: string): string {
  const output = npm(['pack', '--pack-destination', destination], directory).trim().split('\n');
  return path.join(destination, last(output, 'the output of npm pack'));
}

// What a partner's backend does with the installed package: the five calls, on values the server returned.
const FLOW = `
const { createPartnerClient } = require('@partner-booking/client');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const need = (step, result) => {
  if (result.data) return result.data.data;
  throw new Error(step + ' answered ' + result.response.status + ': ' + JSON.stringify(result.error));
};
(async () => {
  const { BASE_URL, CLIENT_ID, CLIENT_SECRET, ROUTE_ID, START_DATE } = process.env;
  const client = createPartnerClient({ baseUrl: BASE_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  const { api } = client;
  const quote = need('quote', await api.POST('/api/external/v1/reference/quote', { body: { nationality: 'Germany', ages: [35], startDate: START_DATE, duration: 16, routeId: ROUTE_ID } }));
  const ids = {};
  for (const type of ['AVATAR', 'PASSPORT', 'SIGNATURE']) {
    ids[type] = need('upload', await client.uploadDocument(new Blob([PNG], { type: 'image/png' }), type.toLowerCase() + '.png', type)).documentId;
  }
  const [traveller] = need('travellers', await api.POST('/api/external/v1/travellers', { body: [{
    email: 'sophie.keller@example.com', name: 'Sophie Keller', dateOfBirth: '1991-03-14', nationality: 'Germany', idType: 'PASSPORT',
    idNumber: 'C4R7T2K91', gender: 'FEMALE', phone: '+49 151 23456789', emergencyContactName: 'Markus Keller',
    emergencyContactPhone: '+49 170 9876543', emergencyContactEmail: 'markus.keller@example.com', emergencyContactRelation: 'Brother',
    avatarDocumentId: ids.AVATAR, passportDocumentId: ids.PASSPORT, signatureDocumentId: ids.SIGNATURE,
  }] }));
  const order = need('order', await api.POST('/api/external/v1/orders', { body: { touristId: traveller.touristId, ctgId: quote.ctgId, quoteId: quote.quoteId, routeId: ROUTE_ID, departureDate: quote.startDate } }));
  const payment = need('pay', await client.pay(order.orderRef, { gateway: 'card_gateway', returnUrl: 'https://partner.example.com/payments/complete' }));
  const status = need('status', await api.GET('/api/external/v1/orders/{orderRef}/payment-status', { params: { path: { orderRef: order.orderRef } } }));
  console.log(JSON.stringify({ quoteId: quote.quoteId, orderQuoteId: order.quoteId, touristId: traveller.touristId, orderTouristId: order.traveller.touristId, orderRef: order.orderRef, paymentRef: payment.paymentRef, status }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

// The types travel with the package: a partner's TypeScript sees the contract, and a wrong path or body does not compile.
const CONSUMER_TS = `
import { createPartnerClient, isOrderGroup, verifyWebhook, type Schemas, type WebhookEvent } from '@partner-booking/client';
const client = createPartnerClient({ baseUrl: 'https://sandbox.partner-api.example.com', clientId: 'id', clientSecret: 'secret' });
const body: Schemas['QuoteRequest'] = { nationality: 'Germany', ages: [35], startDate: '2031-10-05', duration: 14, maxAltitude: 5364 };
export const quote = client.api.POST('/api/external/v1/reference/quote', { body });
// @ts-expect-error: the contract has no such operation
export const wrongPath = client.api.POST('/api/external/v1/reference/quotes', { body });
// @ts-expect-error: gateway must be card_gateway or wallet_gateway
export const wrongGateway: Schemas['PayRequest'] = { gateway: 'cash' };

// One order or a group, told apart without a cast.
export async function book(order: Schemas['OrderInput']): Promise<string[]> {
  const single = await client.createOrder(order);
  const one: string | undefined = single.data?.data.orderRef;
  const group = await client.createOrderGroup([order, order]);
  const many: string[] = group.data?.data.orders.map((created) => created.orderRef) ?? [];
  const raw = await client.api.POST('/api/external/v1/orders', { body: order });
  const either = raw.data?.data;
  const refs = either === undefined ? [] : isOrderGroup(either) ? either.orders.map((created) => created.orderRef) : [either.orderRef];
  return [...(one ? [one] : []), ...many, ...refs];
}

// Every event type has its own data, chosen by type.
export function onEvent(secret: string, headers: Record<string, string>, rawBody: string): string {
  const event: WebhookEvent = verifyWebhook(secret, headers, rawBody);
  switch (event.type) {
    case 'order.paid': return event.data.policyNumber;
    case 'refund.failed': return event.data.refundRef;
    default: return event.type;
  }
}

// Helpers for the whole life of a policy, and one iterator for every list.
export async function afterTheSale(orderRef: string, groupRef: string): Promise<number> {
  await client.payGroup(groupRef, { gateway: 'card_gateway', returnUrl: 'https://partner.example.com/back' });
  await client.getOrderGroup(groupRef);
  await client.previewCancellation(orderRef);
  await client.cancel(orderRef, { reason: 'TRIP_CANCELLED' });
  await client.commissionStatements.get('2030-09');
  let seen = 0;
  for await (const order of client.listOrders({ sortBy: 'departureDate' })) seen += order.totalAmount > 0 ? 1 : 0;
  for await (const refund of client.refunds.all({ status: ['FAILED'] })) seen += refund.refundRef.length > 0 ? 1 : 0;
  for await (const event of client.events.all({ type: ['order.paid'] })) seen += event.eventId.length > 0 ? 1 : 0;
  for await (const assistanceCase of client.assistanceCases.all()) seen += assistanceCase.caseRef.length > 0 ? 1 : 0;
  for await (const delivery of client.webhooks.deliveries({ status: 'FAILED' })) seen += delivery.deliveryId.length > 0 ? 1 : 0;
  return seen;
}
`;

// The type test of the published declarations, compiled with `strict` and `skipLibCheck: false`: each
// helper answers its operation's contract types (never `any`, which an inferred openapi-fetch type
// once became), so a wrong field type does not compile (the `@ts-expect-error` lines fail when it does).
const TYPES_TS = `
import type { PartnerClient, Schemas, WebhookEvent } from '@partner-booking/client';

/** true when A is not \`any\` and A and B are assignable both ways: the helper answers the contract's type. */
type IsContract<A, B> = 0 extends 1 & A ? false : [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** true when A is not \`any\` and holds every B: every refusal the contract documents (openapi-fetch drops a field typed only \`null\`, AuthError's \`data\`). */
type Refuses<A, B> = 0 extends 1 & A ? false : [B] extends [A] ? true : false;
type Refusal = Schemas['ApiError'] | Schemas['AuthError'];
type Answer<Call extends (...args: never[]) => Promise<{ data?: unknown; error?: unknown }>> = Awaited<ReturnType<Call>>;
type Body<Call extends (...args: never[]) => Promise<{ data?: unknown; error?: unknown }>> = NonNullable<Answer<Call>['data']>;
type Failure<Call extends (...args: never[]) => Promise<{ data?: unknown; error?: unknown }>> = NonNullable<Answer<Call>['error']>;
type Events = PartnerClient['events'];
type Refunds = PartnerClient['refunds'];
type Claims = PartnerClient['claims'];

export const contractTypes: Record<string, true> = {
  pay: true satisfies IsContract<Body<PartnerClient['pay']>, Schemas['PaymentInitResponse']>,
  payError: true satisfies Refuses<Failure<PartnerClient['pay']>, Refusal>,
  payErrorCode: true satisfies IsContract<Failure<PartnerClient['pay']>['code'], Schemas['ErrorCode'] | undefined>,
  payGroup: true satisfies IsContract<Body<PartnerClient['payGroup']>, Schemas['PaymentInitResponse']>,
  paymentStatus: true satisfies IsContract<Body<PartnerClient['paymentStatus']>, Schemas['PaymentStatusResponse']>,
  getOrder: true satisfies IsContract<Body<PartnerClient['getOrder']>, Schemas['OrderResponse']>,
  getOrderGroup: true satisfies IsContract<Body<PartnerClient['getOrderGroup']>, Schemas['OrderGroupOverviewResponse']>,
  changeDepartureDate: true satisfies IsContract<Body<PartnerClient['changeDepartureDate']>, Schemas['OrderResponse']>,
  previewCancellation: true satisfies IsContract<Body<PartnerClient['previewCancellation']>, Schemas['CancellationPreviewResponse']>,
  cancel: true satisfies IsContract<Body<PartnerClient['cancel']>, Schemas['OrderCancellationResponse']>,
  openAssistanceCase: true satisfies IsContract<Body<PartnerClient['openAssistanceCase']>, Schemas['AssistanceCaseResponse']>,
  uploadDocument: true satisfies IsContract<Body<PartnerClient['uploadDocument']>, Schemas['DocumentResponse']>,
  uploadError: true satisfies Refuses<Failure<PartnerClient['uploadDocument']>, Refusal | Schemas['UploadError']>,
  listOrdersPage: true satisfies IsContract<Body<PartnerClient['listOrdersPage']>, Schemas['OrderPageResponse']>,
  listOrdersPageError: true satisfies Refuses<Failure<PartnerClient['listOrdersPage']>, Refusal>,
  saveCertificateError: true satisfies Refuses<Extract<Awaited<ReturnType<PartnerClient['saveCertificate']>>, { saved: false }>['error'], Refusal>,
  exportOrdersCsvError: true satisfies Refuses<Extract<Awaited<ReturnType<PartnerClient['exportOrdersCsv']>>, { ok: false }>['error'], Refusal>,
  refundsList: true satisfies IsContract<Body<Refunds['list']>, Schemas['RefundPageResponse']>,
  refundsCsv: true satisfies IsContract<Extract<Awaited<ReturnType<Refunds['exportCsv']>>, { ok: true }>['stream'], ReadableStream<Uint8Array>>,
  eventPayload: true satisfies IsContract<Body<Events['get']>['data']['payload'], WebhookEvent>,
  eventListPayload: true satisfies IsContract<Body<Events['list']>['data']['content'][number]['payload'], WebhookEvent>,
  webhookCreate: true satisfies IsContract<Body<PartnerClient['webhooks']['create']>, Schemas['WebhookEndpointSecretResponse']>,
  claimFile: true satisfies IsContract<Body<Claims['file']>, Schemas['ClaimResponse']>,
  claimFileError: true satisfies Refuses<Failure<Claims['file']>, Refusal>,
  claimsList: true satisfies IsContract<Body<Claims['list']>, Schemas['ClaimPageResponse']>,
  claimGet: true satisfies IsContract<Body<Claims['get']>, Schemas['ClaimResponse']>,
  claimsCsv: true satisfies IsContract<Extract<Awaited<ReturnType<Claims['exportCsv']>>, { ok: true }>['stream'], ReadableStream<Uint8Array>>,
};

// A field read with another type than the contract's does not compile, helper by helper.
export async function misread(client: PartnerClient, file: Blob, caseBody: Schemas['AssistanceCaseRequest']): Promise<void> {
  const payBody: Schemas['PayRequest'] = { gateway: 'card_gateway', returnUrl: 'https://partner.example.com/back' };
  const paid: Schemas['PaymentInit'] = (await client.pay('ORD-2030-000142', payBody)).data!.data;
  // @ts-expect-error: paymentUrl is a string
  const payUrl: number = (await client.pay('ORD-2030-000142', payBody)).data!.data.paymentUrl;
  // @ts-expect-error: paymentRef is a string
  const groupPayment: number = (await client.payGroup('GRP-2030-000011', payBody)).data!.data.paymentRef;
  // @ts-expect-error: orderRef is a string
  const statusOf: number = (await client.paymentStatus('ORD-2030-000142')).data!.data.orderRef;
  const order: Schemas['Order'] = (await client.getOrder('ORD-2030-000142')).data!.data;
  // @ts-expect-error: orderRef is a string
  const orderRef: number = (await client.getOrder('ORD-2030-000142')).data!.data.orderRef;
  const group: Schemas['OrderGroupOverview'] = (await client.getOrderGroup('GRP-2030-000011')).data!.data;
  // @ts-expect-error: groupRef is a string
  const groupRef: number = (await client.getOrderGroup('GRP-2030-000011')).data!.data.groupRef;
  // @ts-expect-error: departureDate is a string
  const moved: number = (await client.changeDepartureDate('ORD-2030-000142', '2031-10-05')).data!.data.departureDate;
  const preview: Schemas['CancellationPreview'] = (await client.previewCancellation('ORD-2030-000142')).data!.data;
  // @ts-expect-error: refundAmount is a number
  const refundAmount: string = (await client.previewCancellation('ORD-2030-000142')).data!.data.refundAmount;
  const cancelled: Schemas['OrderCancellationResult'] = (await client.cancel('ORD-2030-000142', { reason: 'TRIP_CANCELLED' })).data!.data;
  // @ts-expect-error: cancelledAt is a string
  const cancelledAt: number = (await client.cancel('ORD-2030-000142', { reason: 'TRIP_CANCELLED' })).data!.data.cancelledAt;
  const opened: Schemas['AssistanceCaseDetail'] = (await client.openAssistanceCase('ORD-2030-000142', caseBody)).data!.data;
  // @ts-expect-error: caseRef is a string
  const caseRef: number = (await client.openAssistanceCase('ORD-2030-000142', caseBody)).data!.data.caseRef;
  const uploaded: Schemas['Document'] = (await client.uploadDocument(file, 'passport.pdf', 'PASSPORT')).data!.data;
  // @ts-expect-error: documentId is a string
  const documentId: number = (await client.uploadDocument(file, 'passport.pdf', 'PASSPORT')).data!.data.documentId;
  const page: Schemas['OrderPage'] = (await client.listOrdersPage({ size: 5 })).data!.data;
  // @ts-expect-error: totalElements is a number
  const total: string = (await client.listOrdersPage({ size: 5 })).data!.data.totalElements;
  const refunds: Schemas['RefundPage'] = (await client.refunds.list({ size: 5 })).data!.data;
  // @ts-expect-error: the JSON helper answers the page, never the CSV text
  const csvText: string = (await client.refunds.list()).data!;
  const event: WebhookEvent = (await client.events.get('evt_4c1f9a2e7b3d4e8a9f6c2d1e0b5a7c3f')).data!.data.payload;
  const policy: string | undefined = event.type === 'order.paid' ? event.data.policyNumber : undefined;
  // @ts-expect-error: only order.paid carries a policy number: the payload is told apart by its type
  const untold: string = event.data.policyNumber;
  const created = await client.webhooks.create({ url: 'https://hooks.example.com/pbs', events: ['order.paid'] }, { idempotencyKey: '0b7c3f2e-9a1d-4e6b-8c5a-2f4d6e8a0b1c' });
  const secret: string = created.data!.data.secret;
  const claim: Schemas['ClaimDetail'] = (await client.claims.get('CLM-2030-000012')).data!.data;
  // @ts-expect-error: an approved total is a number
  const approvedTotal: string | null | undefined = (await client.claims.get('CLM-2030-000012')).data!.data.decision?.approvedTotal;
  console.log(claim, approvedTotal, paid, payUrl, groupPayment, statusOf, order, orderRef, group, groupRef, moved, preview, refundAmount, cancelled, cancelledAt, opened, caseRef, uploaded, documentId, page, total, refunds, csvText, policy, untold, secret);
}
`;

// What a partner's strict project says about its compiler: nothing of a dependency's declarations skipped.
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022'],
    types: ['node'],
  },
  files: ['consumer.ts', 'types.ts'],
};

/**
 * The client directory copied outside the repository (without what a build leaves), installed with
 * its own dev dependencies and packed there, as a partner or a CI job would: nothing resolves from
 * the repository. The registry is asked only for what npm's cache lacks.
 */
function packedOutsideRepository(workspace: string, destination: string): string {
  const copy = path.join(workspace, 'client-source');
  fs.cpSync(CLIENT_DIR, copy, { recursive: true, filter: (source) => !/[\\/](dist|node_modules)$/.test(source) });
  npm(['install', '--prefer-offline'], copy);
  return pack(copy, destination);
}

describe('the typed client as a package (clients/typescript)', () => {
  let server: RunningServer;
  let partner: TestPartner;
  let project: string;

  beforeAll(async () => {
    server = await startTestServer();
    partner = await newPartner(server, new ApiClient(server.url));
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-client-consumer-'));
    // An empty project outside the repository: nothing resolves from the repository's node_modules.
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    const tarballs = path.join(project, 'tarballs');
    fs.mkdirSync(tarballs);
    const client = packedOutsideRepository(project, tarballs);
    // Its one dependency and that one's, packed from this install: the test needs no registry.
    const dependencies = ['openapi-fetch', 'openapi-typescript-helpers'].map((name) =>
      pack(path.join(ROOT, 'node_modules', name), tarballs),
    );
    npm(['install', '--offline', '--ignore-scripts', client, ...dependencies], project);
  }, 300_000);

  afterAll(async () => {
    await server.stop();
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it('when packed, then the tarball holds the built JavaScript, its types and the contract types, and nothing that points outside it', () => {
    const installed = path.join(project, 'node_modules/@partner-booking/client');
    const files = fs.readdirSync(path.join(installed, 'dist'), { recursive: true }).map(String).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'index.js',
        'index.d.ts',
        'client.js',
        'client.d.ts',
        path.join('generated', 'api.d.ts'),
        path.join('generated', 'webhook-events.d.ts'),
      ]),
    );
    expect(files.some((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toBe(false);
    for (const file of files.filter((name) => name.endsWith('.js') || name.endsWith('.d.ts'))) {
      expect(fs.readFileSync(path.join(installed, 'dist', file), 'utf8')).not.toMatch(
        /\.\.\/\.\.\/\.\.\/generated|clients\/typescript/,
      );
    }
  });

  it('when installed into an empty project, then plain Node runs the booking flow with it against the server', async () => {
    fs.writeFileSync(path.join(project, 'flow.cjs'), FLOW);
    // Asynchronously: the server answering the flow runs in this process.
    const run = await promisify(execFile)(process.execPath, ['flow.cjs'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        BASE_URL: server.url,
        CLIENT_ID: partner.clientId,
        CLIENT_SECRET: partner.clientSecret,
        ROUTE_ID: ROUTES.everestBaseCamp,
        START_DATE: startDate(),
      },
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout);
    expect(result.orderQuoteId).toBe(result.quoteId);
    expect(result.orderTouristId).toBe(result.touristId);
    expect(result.paymentRef.startsWith(`${result.orderRef}-`)).toBe(true);
    expect(result.status).toMatchObject({
      orderRef: result.orderRef,
      orderStatus: 'PENDING',
      paymentStatus: 'INITIATED',
      paymentRef: result.paymentRef,
    });
  });

  it('when a strict TypeScript project that skips no declarations imports it, then every helper answers the contract types', () => {
    fs.writeFileSync(path.join(project, 'consumer.ts'), CONSUMER_TS);
    fs.writeFileSync(path.join(project, 'types.ts'), TYPES_TS);
    // The Node types the package brings for its own build (the consumer has none of its own).
    const typeRoots = [path.join(project, 'client-source/node_modules/@types')];
    const compilerOptions = { ...CONSUMER_TSCONFIG.compilerOptions, typeRoots };
    const configs = {
      'tsconfig.json': { ...CONSUMER_TSCONFIG, compilerOptions },
      // A bundler's project resolves openapi-fetch's ESM declarations instead of its CommonJS ones.
      'tsconfig.bundler.json': {
        ...CONSUMER_TSCONFIG,
        compilerOptions: { ...compilerOptions, module: 'preserve', moduleResolution: 'bundler' },
      },
    };
    for (const [name, config] of Object.entries(configs))
      fs.writeFileSync(path.join(project, name), JSON.stringify(config, null, 2));
    // The repository's TypeScript 7 (typecheck, the examples) on both, and the 5.9 the package builds with.
    const compilers = [
      ['typescript-native', 'tsconfig.json'],
      ['typescript-native', 'tsconfig.bundler.json'],
      ['typescript', 'tsconfig.json'],
    ];
    const reports = compilers.map(([compiler, config]) => {
      const run = spawnSync(
        process.execPath,
        [path.join(ROOT, 'node_modules', compiler!, 'bin/tsc'), '-p', path.join(project, config!)],
        { cwd: project, encoding: 'utf8' },
      );
      return { compiler, config, status: run.status, output: run.stdout + run.stderr };
    });
    expect(reports).toEqual(compilers.map(([compiler, config]) => ({ compiler, config, status: 0, output: '' })));
  });
});

/** A departure 30 days ahead in Kathmandu. */
function startDate(): string {
  return new Date(Date.now() + (5 * 60 + 45) * 60_000 + 30 * 86_400_000).toISOString().slice(0, 10);
}
