import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated/api';
import { csvExport, type CsvExportResult, type OperationError, type OperationResult } from './operation-result';
import {
  backoffDelayMs,
  DEFAULT_RETRY,
  isRetryableStatus,
  isSafeToResend,
  retryAfterMs,
  type RetryOptions,
} from './retry-policy';
import { TokenCache } from './token-cache';
import { webhookCalls, type WebhookCalls } from './webhooks';
import { assistanceCaseCalls, claimCalls, commissionCalls, eventCalls, refundCalls } from './after-sale';
import { bookingCalls, promoCalls } from './booking';
import { orderCreation, type CreatedResult } from './order-creation';
import { everyItem } from './pages';

export type Schemas = components['schemas'];
/** The order book's filters (GET /orders): status, paymentStatus, departure and creation ranges, groupRef, touristId, search. */
export type OrderBookQuery = NonNullable<operations['listOrders']['parameters']['query']>;
export type PartnerApi = Client<paths>;

export interface PartnerClientOptions {
  /** Scheme, host and port of the service, e.g. `http://localhost:3000` (the spec's `{base_url}`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Renew the token this many seconds before it expires. Default 60. */
  refreshBeforeSeconds?: number;
  retry?: Partial<RetryOptions>;
  /** Per-attempt timeout; a timed-out attempt counts as a network failure. Default 30 s. */
  timeoutMs?: number;
  /** Injected by tests: the underlying fetch, the clock, the sleep between attempts. */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export type RefundCalls = ReturnType<typeof refundCalls>;
export type EventCalls = ReturnType<typeof eventCalls>;
export type CommissionCalls = ReturnType<typeof commissionCalls>;
export type AssistanceCaseCalls = ReturnType<typeof assistanceCaseCalls>;
export type ClaimCalls = ReturnType<typeof claimCalls>;
export type PromoCalls = ReturnType<typeof promoCalls>;
type Booking = ReturnType<typeof bookingCalls>;

export interface PartnerClient {
  /**
   * The typed client (openapi-fetch over the generated types): `api.GET(path, { params })`,
   * `api.POST(path, { body })`. Every call carries a cached bearer token and follows the retry
   * rules of the contract; failures come back as `{ error, response }`, decided on
   * `response.status` and the fields of `error`, never on its `message`.
   */
  api: PartnerApi;
  /**
   * POST /orders/{orderRef}/pay with an Idempotency-Key: every retry of this call (after a 500,
   * a 429 or a network failure) sends the same key, so it resumes the same attempt. Pass your
   * own stored key to resume an attempt after your process restarted.
   */
  pay(orderRef: string, body: Schemas['PayRequest'], options?: { idempotencyKey?: string }): Promise<PayResult>;
  /**
   * POST /orders/groups/{groupRef}/pay: one payment for every PENDING order of the group, with an
   * Idempotency-Key that every retry of this call sends again (as `pay`).
   */
  payGroup(
    groupRef: string,
    body: Schemas['PayRequest'],
    options?: { idempotencyKey?: string },
  ): Promise<PayGroupResult>;
  /** GET /orders/{orderRef}/payment-status: the authoritative payment state of one order. */
  paymentStatus(orderRef: string): Promise<PaymentStatusResult>;
  /**
   * POST /orders with one order (an object body): `data.data` is the Order. With an
   * Idempotency-Key that every retry of this call sends again, so a retry after a timeout answers
   * the order already created instead of a duplicate. Pass your own stored key to repeat it later.
   */
  createOrder(
    body: Schemas['OrderInput'],
    options?: { idempotencyKey?: string },
  ): Promise<CreatedResult<Schemas['Order']>>;
  /** POST /orders with an array body (1 to 50 orders): `data.data` is the OrderGroup with its `groupRef`. Idempotent as createOrder. */
  createOrderGroup(
    body: Schemas['OrderInput'][],
    options?: { idempotencyKey?: string },
  ): Promise<CreatedResult<Schemas['OrderGroup']>>;
  /** GET /orders/{orderRef}: the full order (any of the four identifier forms). */
  getOrder(orderRef: string): Promise<GetOrderResult>;
  /** GET /orders/groups/{groupRef}: the group, its orders as the order book lists them, and where its payment stands. */
  getOrderGroup(groupRef: string): Promise<GetOrderGroupResult>;
  /**
   * POST /orders/{orderRef}/cancellation/preview: what cancelling the order would do now (rule,
   * refund, fee); changes nothing.
   */
  previewCancellation(orderRef: string): Promise<CancellationPreviewResult>;
  /**
   * POST /orders/{orderRef}/cancellation with an Idempotency-Key that every retry of this call
   * sends again, so a retried cancellation answers the first one's result (and never a second
   * refund). Pass your own stored key to repeat it after your process restarted.
   */
  cancel(
    orderRef: string,
    body: Schemas['CancellationRequest'],
    options?: { idempotencyKey?: string },
  ): Promise<CancelResult>;
  /**
   * POST /orders/{orderRef}/assistance-cases with an Idempotency-Key that every retry of this call
   * sends again, so a retry after a timeout answers the case already opened instead of a 409.
   * Then call the desk on `data.desk.phone`: the case does not replace the call.
   */
  openAssistanceCase(
    orderRef: string,
    body: Schemas['AssistanceCaseRequest'],
    options?: { idempotencyKey?: string },
  ): Promise<AssistanceCaseResult>;
  /** POST /reference/quote: the price of a trip. */
  quote: Booking['quote'];
  /** GET /reference/quote/{quoteId}. */
  getQuote: Booking['getQuote'];
  /** GET /reference/ctgs: the packages, filtered and sorted. */
  listPackages: Booking['listPackages'];
  /** GET /reference/routes. */
  listRoutes: Booking['listRoutes'];
  /** GET /disruptions: the active and recent weather disruptions, `area` and `status` filters. */
  listDisruptions: Booking['listDisruptions'];
  /**
   * POST /orders/{orderRef}/extension with `disruptionId`: the cover extended free under a weather
   * disruption (`extraDays` or `coverageEndDate`), applied at once; the Idempotency-Key is kept
   * across the call's retries (pass your own to repeat it later).
   */
  extendUnderDisruption(
    orderRef: string,
    body: { disruptionId: string } & ({ extraDays: number } | { coverageEndDate: string }),
    options?: { idempotencyKey?: string },
  ): Promise<OperationResult<'extendOrder'>>;
  /** POST /travellers (1 to 50) with an Idempotency-Key kept across the call's retries (pass your own to repeat it later). */
  registerTravellers(
    travellers: Schemas['TravellerInput'][],
    options?: { idempotencyKey?: string },
  ): ReturnType<Booking['registerTravellers']>;
  /** GET /travellers: one page of your travellers. */
  listTravellers: Booking['listTravellers'];
  /** Promo codes on an order or a group: `previewOnOrder`, `applyToOrder`, `removeFromOrder`, and the same `...Group`. */
  promos: PromoCalls;
  /** POST /documents as multipart/form-data, letting fetch set the boundary (spec/paths/documents.yaml). */
  uploadDocument(file: Blob, fileName: string, documentType: Schemas['DocumentType']): Promise<UploadResult>;
  /**
   * GET /orders/{orderRef}/certificate streamed into `filePath`: written to a file beside it and
   * renamed once complete, so a failed or cut download never leaves a partial PDF behind. A 400
   * (order not paid yet), 403 or 404 comes back as `{ saved: false, error, response }`.
   */
  saveCertificate(orderRef: string, filePath: string): Promise<SaveCertificateResult>;
  /**
   * PATCH /orders/{orderRef} with only `departureDate`: moves the trek's date (cover window
   * moved, same length, same price, same policy number). Resent after a network failure: the
   * order's current date answers 200 and changes nothing, so a resend cannot move it twice.
   */
  changeDepartureDate(orderRef: string, departureDate: string): Promise<DepartureChangeResult>;
  /**
   * POST /orders/{orderRef}/extension/preview: the new window, its premium and `amountDue` for a
   * later `coverageEndDate` (or `extraDays`), and whether it is allowed now; changes nothing.
   */
  previewExtension(orderRef: string, body: Schemas['ExtensionAsk']): Promise<ExtensionPreviewResult>;
  /**
   * POST /orders/{orderRef}/extension with an Idempotency-Key that every retry of this call sends
   * again, so a retry answers the first extension (never a second top-up). Send the customer to
   * `data.data.paymentUrl` when something is due; nothing due applies at once.
   */
  extend(
    orderRef: string,
    body: Schemas['ExtensionRequest'],
    options?: { idempotencyKey?: string },
  ): Promise<ExtensionResult>;
  /**
   * POST /orders/groups/{groupRef}/extension/preview: every member still covered extended to one
   * new end, each member's `amountDue` and the one top-up's; cancelled members in `skipped`.
   */
  previewGroupExtension(groupRef: string, body: Schemas['ExtensionAsk']): Promise<GroupExtensionPreviewResult>;
  /**
   * POST /orders/groups/{groupRef}/extension: every member extended by one top-up payment (a share
   * per member), with an Idempotency-Key that every retry of this call sends again, so a retry
   * answers the same extensions (never a second top-up). Send the customer to
   * `data.data.paymentUrl` when something is due.
   */
  extendGroup(
    groupRef: string,
    body: Schemas['ExtensionRequest'],
    options?: { idempotencyKey?: string },
  ): Promise<GroupExtensionResult>;
  /** Your webhook endpoints (register, list, change, delete, rotate the secret, test, replay) and the delivery log (list, iterate, retry). */
  webhooks: WebhookCalls;
  /** GET /refunds and GET /refunds/{refundRef}: `list` (a page), `all` (every refund), `get`. */
  refunds: RefundCalls;
  /** GET /events and GET /events/{eventId}: `list`, `all`, `get`, each event with its payload as delivered. */
  events: EventCalls;
  /** GET /commission-statements and GET /commission-statements/{period}: `list`, `get`. */
  commissionStatements: CommissionCalls;
  /** GET /assistance-cases, GET /assistance-cases/{caseRef}, updates and withdrawal: `list`, `all`, `get`, `addUpdate`, `withdraw`. */
  assistanceCases: AssistanceCaseCalls;
  /** Claims: `file` (with an Idempotency-Key kept across retries), `list`, `all`, `exportCsv`, `get`, `answer`, `withdraw`. */
  claims: ClaimCalls;
  /** GET /orders: one page of the order book (`page`, `size` up to 100, and the filters). */
  listOrdersPage(query?: OrderBookQuery): Promise<OrderPageResult>;
  /**
   * The whole order book, order by order (the one iterator of this client, like `refunds.all`,
   * `events.all`, `assistanceCases.all` and `webhooks.deliveries`):
   * `for await (const order of client.listOrders({ status: ['PAID'] }))`. Pages after the first
   * keep `createdTo` at the first answer's time (unless you gave one), so orders created meanwhile
   * do not shift the pages under you. A refused page throws ListPageError.
   */
  listOrders(query?: Omit<OrderBookQuery, 'page'>): AsyncGenerator<Schemas['OrderSummary']>;
  /**
   * GET /orders with `Accept: text/csv`: every matching order as CSV, as a stream (read it, pipe
   * it to a file) with the file name the service suggests. A 400 (a filter out of bounds) comes
   * back as `{ ok: false, error, response }`.
   */
  exportOrdersCsv(query?: Omit<OrderBookQuery, 'page' | 'size'>): Promise<OrdersCsvResult>;
}

type OrderBookFailure = OperationError<'listOrders'>;
export type PayGroupResult = OperationResult<'payGroup'>;
export type PaymentStatusResult = OperationResult<'getPaymentStatus'>;
export type GetOrderResult = OperationResult<'getOrder'>;
export type GetOrderGroupResult = OperationResult<'getOrderGroup'>;
/** One page of the order book (`data` on a 2xx), or the refusal (`error`) with its response. */
export interface OrderPageResult {
  data: Schemas['OrderPageResponse'] | undefined;
  error: OrderBookFailure | undefined;
  response: Response;
}
export type OrdersCsvResult = CsvExportResult<OrderBookFailure>;

export type SaveCertificateResult =
  | { saved: true; filePath: string; bytes: number; response: Response }
  | { saved: false; error: CertificateError; response: Response };
type CertificateError = OperationError<'getOrderCertificate'>;

export type PayResult = OperationResult<'payOrder'>;
export type CancellationPreviewResult = OperationResult<'previewOrderCancellation'>;
export type CancelResult = OperationResult<'cancelOrder'>;
export type AssistanceCaseResult = OperationResult<'openAssistanceCase'>;
export type UploadResult = OperationResult<'uploadDocument'>;
export type DepartureChangeResult = OperationResult<'updateOrder'>;
export type ExtensionPreviewResult = OperationResult<'previewOrderExtension'>;
export type ExtensionResult = OperationResult<'extendOrder'>;
export type GroupExtensionPreviewResult = OperationResult<'previewGroupExtension'>;
export type GroupExtensionResult = OperationResult<'extendGroup'>;

const TOKEN_PATH = '/api/external/v1/auth/token';

/** Raised when the service cannot issue a token: the credential itself is at fault (or the service is down). */
export class TokenRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`POST ${TOKEN_PATH} answered ${status}`);
    this.name = 'TokenRequestError';
  }
}

export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const baseFetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const timeoutMs = options.timeoutMs ?? 30_000;

  /** One request, retried on 500/429 (and on network failure when resending is safe) with capped backoff. */
  const withRetries = async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= retry.maxAttempts;
      let response: Response;
      try {
        response = await baseFetch(request.clone(), { signal: AbortSignal.timeout(timeoutMs) });
      } catch (failure) {
        if (last || !isSafeToResend(request.method, request.headers)) throw failure;
        await sleep(backoffDelayMs(attempt, retry));
        continue;
      }
      if (last || !isRetryableStatus(response.status)) return response;
      const wait =
        (response.status === 429 ? retryAfterMs(response.headers.get('retry-after'), retry) : undefined) ??
        backoffDelayMs(attempt, retry);
      await response.body?.cancel();
      await sleep(wait);
    }
  };

  const tokenClient = createClient<paths>({ baseUrl: options.baseUrl, fetch: withRetries });
  const tokens = new TokenCache(
    async () => {
      const { data, error, response } = await tokenClient.POST(TOKEN_PATH, {
        body: { clientId: options.clientId, clientSecret: options.clientSecret },
      });
      if (!data) throw new TokenRequestError(response.status, error);
      return data.data;
    },
    options.refreshBeforeSeconds ?? 60,
    options.now,
  );

  /** Bearer token on every call; on a 401, one new token and one retry (the Retries table of the contract). */
  const authenticatedFetch = async (request: Request): Promise<Response> => {
    const send = async () => {
      const token = await tokens.get();
      const attempt = request.clone();
      attempt.headers.set('Authorization', `Bearer ${token}`);
      return { token, response: await withRetries(attempt) };
    };
    const first = await send();
    if (first.response.status !== 401) return first.response;
    tokens.discard(first.token);
    await first.response.body?.cancel();
    return (await send()).response;
  };

  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch: authenticatedFetch });
  const creation = orderCreation(api);
  const booking = bookingCalls(api);
  return {
    api,
    quote: booking.quote,
    getQuote: booking.getQuote,
    listPackages: booking.listPackages,
    listRoutes: booking.listRoutes,
    listDisruptions: booking.listDisruptions,
    extendUnderDisruption: (orderRef, body, extendOptions) =>
      api.POST('/api/external/v1/orders/{orderRef}/extension', {
        params: { path: { orderRef }, header: { 'Idempotency-Key': extendOptions?.idempotencyKey ?? randomUUID() } },
        body,
      }),
    registerTravellers: (travellers, registerOptions) =>
      booking.registerTravellers(travellers, registerOptions?.idempotencyKey ?? randomUUID()),
    listTravellers: booking.listTravellers,
    promos: promoCalls(api),
    pay: (orderRef, body, payOptions) => payCall(api, orderRef, body, payOptions?.idempotencyKey ?? randomUUID()),
    payGroup: (groupRef, body, payOptions) =>
      payGroupCall(api, groupRef, body, payOptions?.idempotencyKey ?? randomUUID()),
    paymentStatus: (orderRef) => paymentStatusCall(api, orderRef),
    createOrder: (body, createOptions) => creation.createOrder(body, createOptions?.idempotencyKey ?? randomUUID()),
    createOrderGroup: (body, createOptions) =>
      creation.createOrderGroup(body, createOptions?.idempotencyKey ?? randomUUID()),
    getOrder: (orderRef) => getOrderCall(api, orderRef),
    getOrderGroup: (groupRef) => getOrderGroupCall(api, groupRef),
    previewCancellation: (orderRef) => previewCancellationCall(api, orderRef),
    cancel: (orderRef, body, cancelOptions) =>
      cancelCall(api, orderRef, body, cancelOptions?.idempotencyKey ?? randomUUID()),
    openAssistanceCase: (orderRef, body, caseOptions) =>
      openAssistanceCaseCall(api, orderRef, body, caseOptions?.idempotencyKey ?? randomUUID()),
    uploadDocument: (file, fileName, documentType) => uploadCall(api, file, fileName, documentType),
    saveCertificate: (orderRef, filePath) => saveCertificate(api, orderRef, filePath),
    changeDepartureDate: (orderRef, departureDate) => departureChangeCall(api, orderRef, departureDate),
    previewExtension: (orderRef, body) =>
      api.POST('/api/external/v1/orders/{orderRef}/extension/preview', { params: { path: { orderRef } }, body }),
    extend: (orderRef, body, extendOptions) =>
      api.POST('/api/external/v1/orders/{orderRef}/extension', {
        params: { path: { orderRef }, header: { 'Idempotency-Key': extendOptions?.idempotencyKey ?? randomUUID() } },
        body,
      }),
    previewGroupExtension: (groupRef, body) =>
      api.POST('/api/external/v1/orders/groups/{groupRef}/extension/preview', {
        params: { path: { groupRef } },
        body,
      }),
    extendGroup: (groupRef, body, extendOptions) =>
      api.POST('/api/external/v1/orders/groups/{groupRef}/extension', {
        params: { path: { groupRef }, header: { 'Idempotency-Key': extendOptions?.idempotencyKey ?? randomUUID() } },
        body,
      }),
    webhooks: webhookCalls(api),
    refunds: refundCalls(api),
    events: eventCalls(api),
    commissionStatements: commissionCalls(api),
    assistanceCases: assistanceCaseCalls(api),
    claims: claimCalls(api, randomUUID),
    listOrdersPage: (query = {}) => listOrdersPage(api, query),
    listOrders: (query = {}) =>
      everyItem('/api/external/v1/orders', (page: OrderBookQuery) => listOrdersPage(api, page), query, 'createdTo'),
    exportOrdersCsv: (query = {}) => exportOrdersCsv(api, query),
  };
}

async function listOrdersPage(api: PartnerApi, query: OrderBookQuery): Promise<OrderPageResult> {
  const { data, error, response } = await api.GET('/api/external/v1/orders', { params: { query } });
  // Without `Accept: text/csv` the answer is the JSON page; the CSV is exportOrdersCsv's.
  return { data: typeof data === 'string' ? undefined : data, error, response };
}

async function exportOrdersCsv(
  api: PartnerApi,
  query: Omit<OrderBookQuery, 'page' | 'size'>,
): Promise<OrdersCsvResult> {
  return csvExport(
    'GET /orders',
    await api.GET('/api/external/v1/orders', { params: { query, header: { Accept: 'text/csv' } }, parseAs: 'stream' }),
  );
}

function payCall(
  api: PartnerApi,
  orderRef: string,
  body: Schemas['PayRequest'],
  idempotencyKey: string,
): Promise<PayResult> {
  return api.POST('/api/external/v1/orders/{orderRef}/pay', {
    params: { path: { orderRef }, header: { 'Idempotency-Key': idempotencyKey } },
    body,
  });
}

function payGroupCall(
  api: PartnerApi,
  groupRef: string,
  body: Schemas['PayRequest'],
  idempotencyKey: string,
): Promise<PayGroupResult> {
  return api.POST('/api/external/v1/orders/groups/{groupRef}/pay', {
    params: { path: { groupRef }, header: { 'Idempotency-Key': idempotencyKey } },
    body,
  });
}

function paymentStatusCall(api: PartnerApi, orderRef: string): Promise<PaymentStatusResult> {
  return api.GET('/api/external/v1/orders/{orderRef}/payment-status', { params: { path: { orderRef } } });
}

function getOrderCall(api: PartnerApi, orderRef: string): Promise<GetOrderResult> {
  return api.GET('/api/external/v1/orders/{orderRef}', { params: { path: { orderRef } } });
}

function getOrderGroupCall(api: PartnerApi, groupRef: string): Promise<GetOrderGroupResult> {
  return api.GET('/api/external/v1/orders/groups/{groupRef}', { params: { path: { groupRef } } });
}

function departureChangeCall(api: PartnerApi, orderRef: string, departureDate: string): Promise<DepartureChangeResult> {
  return api.PATCH('/api/external/v1/orders/{orderRef}', { params: { path: { orderRef } }, body: { departureDate } });
}

function previewCancellationCall(api: PartnerApi, orderRef: string): Promise<CancellationPreviewResult> {
  return api.POST('/api/external/v1/orders/{orderRef}/cancellation/preview', { params: { path: { orderRef } } });
}

function cancelCall(
  api: PartnerApi,
  orderRef: string,
  body: Schemas['CancellationRequest'],
  idempotencyKey: string,
): Promise<CancelResult> {
  return api.POST('/api/external/v1/orders/{orderRef}/cancellation', {
    params: { path: { orderRef }, header: { 'Idempotency-Key': idempotencyKey } },
    body,
  });
}

function openAssistanceCaseCall(
  api: PartnerApi,
  orderRef: string,
  body: Schemas['AssistanceCaseRequest'],
  idempotencyKey: string,
): Promise<AssistanceCaseResult> {
  return api.POST('/api/external/v1/orders/{orderRef}/assistance-cases', {
    params: { path: { orderRef }, header: { 'Idempotency-Key': idempotencyKey } },
    body,
  });
}

function uploadCall(
  api: PartnerApi,
  file: Blob,
  fileName: string,
  documentType: Schemas['DocumentType'],
): Promise<UploadResult> {
  return api.POST('/api/external/v1/documents', {
    // The generated type says `file: string` (format: binary); on the wire it is a multipart part.
    body: { documentType, file: fileName },
    bodySerializer: () => {
      const form = new FormData();
      form.append('documentType', documentType);
      form.append('file', file, fileName);
      return form;
    },
  });
}

function certificateCall(api: PartnerApi, orderRef: string) {
  return api.GET('/api/external/v1/orders/{orderRef}/certificate', {
    params: { path: { orderRef } },
    parseAs: 'stream',
  });
}

async function saveCertificate(api: PartnerApi, orderRef: string, filePath: string): Promise<SaveCertificateResult> {
  const { data, error, response } = await certificateCall(api, orderRef);
  if (error !== undefined) return { saved: false, error, response };
  if (!data) throw new Error(`GET certificate of ${orderRef} answered ${response.status} without a body`);
  const partial = `${filePath}.${randomUUID()}.part`;
  let bytes = 0;
  try {
    const counted = Readable.fromWeb(data).on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    await pipeline(counted, createWriteStream(partial, { flags: 'wx' }));
    await rename(partial, filePath);
  } catch (failure) {
    await rm(partial, { force: true });
    throw failure;
  }
  return { saved: true, filePath, bytes, response };
}
