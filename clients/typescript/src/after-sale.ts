import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';
import { csvExport, type CsvExportResult, type OperationError, type OperationResult } from './operation-result';
import { everyItem } from './pages';

type Schemas = components['schemas'];
type QueryOf<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Query } } }
  ? NonNullable<Query>
  : never;

export type RefundQuery = QueryOf<'/api/external/v1/refunds'>;
export type EventQuery = QueryOf<'/api/external/v1/events'>;
export type AssistanceCaseQuery = QueryOf<'/api/external/v1/assistance-cases'>;
export type ClaimQuery = QueryOf<'/api/external/v1/claims'>;

/** One page of your refunds (`data` on a 2xx), or the refusal (`error`) with its response. */
export interface RefundPageResult {
  data: Schemas['RefundPageResponse'] | undefined;
  error: OperationError<'listRefunds'> | undefined;
  response: Response;
}
export type RefundsCsvResult = CsvExportResult<OperationError<'listRefunds'>>;

const REFUNDS = '/api/external/v1/refunds';
const EVENTS = '/api/external/v1/events';
const CASES = '/api/external/v1/assistance-cases';
const CLAIMS = '/api/external/v1/claims';

/**
 * GET /refunds (one page, every refund, the CSV export, one refund): what cancellations, late
 * captures and provider reversals give back.
 */
export function refundCalls(api: Client<paths>) {
  const list = async (query: RefundQuery = {}): Promise<RefundPageResult> => {
    const { data, error, response } = await api.GET(REFUNDS, { params: { query } });
    // Without `Accept: text/csv` the answer is the JSON page; the CSV is exportCsv's.
    return { data: typeof data === 'string' ? undefined : data, error, response };
  };
  return {
    list,
    /**
     * GET /refunds with `Accept: text/csv`: every matching refund as one CSV file, as a stream,
     * with the file name the service suggests. A 400 (a filter out of bounds) comes back as
     * `{ ok: false, error, response }`.
     */
    exportCsv: async (query: Omit<RefundQuery, 'page' | 'size'> = {}): Promise<RefundsCsvResult> =>
      csvExport(
        'GET /refunds',
        await api.GET(REFUNDS, { params: { query, header: { Accept: 'text/csv' } }, parseAs: 'stream' }),
      ),
    /** Every refund matching `query`, item by item (see ListPageError). */
    all: (query: Omit<RefundQuery, 'page'> = {}): AsyncGenerator<Schemas['RefundDetail']> =>
      everyItem(REFUNDS, list, query, 'createdTo'),
    get: (refundRef: string): Promise<OperationResult<'getRefund'>> =>
      api.GET(`${REFUNDS}/{refundRef}`, { params: { path: { refundRef } } }),
  };
}

/** GET /events: your company's events with the payload as delivered, to catch up after an outage of your endpoint. */
export function eventCalls(api: Client<paths>) {
  const list = (query: EventQuery = {}): Promise<OperationResult<'listEvents'>> =>
    api.GET(EVENTS, { params: { query } });
  return {
    list,
    /** Every event matching `query`, newest first unless `sortDir: 'asc'`, item by item. */
    all: (query: Omit<EventQuery, 'page'> = {}): AsyncGenerator<Schemas['EventRecord']> =>
      everyItem(EVENTS, list, query, 'createdTo'),
    get: (eventId: string): Promise<OperationResult<'getEvent'>> =>
      api.GET(`${EVENTS}/{eventId}`, { params: { path: { eventId } } }),
  };
}

/** Commission statements: the months with their totals, and one month's statement (JSON here; CSV and PDF through `api`). */
export function commissionCalls(api: Client<paths>) {
  return {
    list: (): Promise<OperationResult<'listCommissionStatements'>> => api.GET('/api/external/v1/commission-statements'),
    get: (
      period: string,
      query: { page?: number; size?: number } = {},
    ): Promise<OperationResult<'getCommissionStatement'>> =>
      api.GET('/api/external/v1/commission-statements/{period}', { params: { path: { period }, query } }),
  };
}

/** Assistance cases beyond opening one (client.openAssistanceCase): read, list, update, withdraw. */
export function assistanceCaseCalls(api: Client<paths>) {
  const list = (query: AssistanceCaseQuery = {}): Promise<OperationResult<'listAssistanceCases'>> =>
    api.GET(CASES, { params: { query } });
  const onCase = (caseRef: string) => ({ params: { path: { caseRef } } });
  return {
    list,
    /** Every case you may read matching `query`, item by item. */
    all: (query: Omit<AssistanceCaseQuery, 'page'> = {}): AsyncGenerator<Schemas['AssistanceCase']> =>
      everyItem(CASES, list, query, 'openedTo'),
    get: (caseRef: string): Promise<OperationResult<'getAssistanceCase'>> =>
      api.GET(`${CASES}/{caseRef}`, onCase(caseRef)),
    addUpdate: (
      caseRef: string,
      body: Schemas['AssistanceCaseUpdateRequest'],
    ): Promise<OperationResult<'addAssistanceCaseUpdate'>> =>
      api.POST(`${CASES}/{caseRef}/updates`, { ...onCase(caseRef), body }),
    withdraw: (
      caseRef: string,
      body: Schemas['AssistanceCaseWithdrawalRequest'],
    ): Promise<OperationResult<'withdrawAssistanceCase'>> =>
      api.POST(`${CASES}/{caseRef}/withdrawal`, { ...onCase(caseRef), body }),
  };
}

/** One page of the claims you may read (`data` on a 2xx), or the refusal (`error`) with its response. */
export interface ClaimPageResult {
  data: Schemas['ClaimPageResponse'] | undefined;
  error: OperationError<'listClaims'> | undefined;
  response: Response;
}
export type ClaimsCsvResult = CsvExportResult<OperationError<'listClaims'>>;

/**
 * Claims: file one, read them (a page, every claim, the CSV export, one claim with its
 * timeline), answer the desk's information request, withdraw before a decision.
 */
export function claimCalls(api: Client<paths>, newKey: () => string) {
  const list = async (query: ClaimQuery = {}): Promise<ClaimPageResult> => {
    const { data, error, response } = await api.GET(CLAIMS, { params: { query } });
    // Without `Accept: text/csv` the answer is the JSON page; the CSV is exportCsv's.
    return { data: typeof data === 'string' ? undefined : data, error, response };
  };
  const onClaim = (claimRef: string) => ({ params: { path: { claimRef } } });
  return {
    /**
     * POST /orders/{orderRef}/claims with an Idempotency-Key that every retry of this call sends
     * again, so a retry after a timeout answers the claim already filed instead of filing it twice.
     */
    file: (
      orderRef: string,
      body: Schemas['ClaimRequest'],
      options: { idempotencyKey?: string } = {},
    ): Promise<OperationResult<'fileClaim'>> =>
      api.POST('/api/external/v1/orders/{orderRef}/claims', {
        params: { path: { orderRef }, header: { 'Idempotency-Key': options.idempotencyKey ?? newKey() } },
        body,
      }),
    list,
    /** Every claim you may read matching `query`, item by item (see ListPageError). */
    all: (query: Omit<ClaimQuery, 'page'> = {}): AsyncGenerator<Schemas['Claim']> =>
      everyItem(CLAIMS, list, query, 'createdTo'),
    /** GET /claims with `Accept: text/csv`: every matching claim as one CSV file, as a stream, with the file name the service suggests. */
    exportCsv: async (query: Omit<ClaimQuery, 'page' | 'size'> = {}): Promise<ClaimsCsvResult> =>
      csvExport(
        'GET /claims',
        await api.GET(CLAIMS, { params: { query, header: { Accept: 'text/csv' } }, parseAs: 'stream' }),
      ),
    get: (claimRef: string): Promise<OperationResult<'getClaim'>> => api.GET(`${CLAIMS}/{claimRef}`, onClaim(claimRef)),
    /** The answer to the desk's information request: a note and documents; the claim goes back to UNDER_ASSESSMENT. */
    answer: (
      claimRef: string,
      body: Schemas['ClaimInformationRequest'],
    ): Promise<OperationResult<'answerClaimInformationRequest'>> =>
      api.POST(`${CLAIMS}/{claimRef}/information`, { ...onClaim(claimRef), body }),
    withdraw: (claimRef: string, body: Schemas['ClaimWithdrawalRequest']): Promise<OperationResult<'withdrawClaim'>> =>
      api.POST(`${CLAIMS}/{claimRef}/withdrawal`, { ...onClaim(claimRef), body }),
  };
}
