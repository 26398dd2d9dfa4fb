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
