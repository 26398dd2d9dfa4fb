import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';
import { everyItem } from './pages';

type Schemas = components['schemas'];
type QueryOf<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Query } } }
  ? NonNullable<Query>
  : never;

export type RefundQuery = QueryOf<'/api/external/v1/refunds'>;
export type EventQuery = QueryOf<'/api/external/v1/events'>;
export type AssistanceCaseQuery = QueryOf<'/api/external/v1/assistance-cases'>;

const REFUNDS = '/api/external/v1/refunds';
const EVENTS = '/api/external/v1/events';
const CASES = '/api/external/v1/assistance-cases';

/** GET /refunds (one page, every refund, one refund): what cancellations, late captures and provider reversals give back. */
export function refundCalls(api: Client<paths>) {
  const list = (query: RefundQuery = {}) => api.GET(REFUNDS, { params: { query } });
  return {
    list,
    /** Every refund matching `query`, item by item (see ListPageError). */
    all: (query: Omit<RefundQuery, 'page'> = {}): AsyncGenerator<Schemas['RefundDetail']> =>
      everyItem(REFUNDS, list, query, 'createdTo'),
    get: (refundRef: string) => api.GET(`${REFUNDS}/{refundRef}`, { params: { path: { refundRef } } }),
  };
}

/** GET /events: your company's events with the payload as delivered, to catch up after an outage of your endpoint. */
export function eventCalls(api: Client<paths>) {
  const list = (query: EventQuery = {}) => api.GET(EVENTS, { params: { query } });
  return {
    list,
    /** Every event matching `query`, newest first unless `sortDir: 'asc'`, item by item. */
    all: (query: Omit<EventQuery, 'page'> = {}): AsyncGenerator<Schemas['EventRecord']> =>
      everyItem(EVENTS, list, query, 'createdTo'),
    get: (eventId: string) => api.GET(`${EVENTS}/{eventId}`, { params: { path: { eventId } } }),
  };
}

/** Commission statements: the months with their totals, and one month's statement (JSON here; CSV and PDF through `api`). */
export function commissionCalls(api: Client<paths>) {
  return {
    list: () => api.GET('/api/external/v1/commission-statements'),
    get: (period: string, query: { page?: number; size?: number } = {}) =>
      api.GET('/api/external/v1/commission-statements/{period}', { params: { path: { period }, query } }),
  };
}

/** Assistance cases beyond opening one (client.openAssistanceCase): read, list, update, withdraw. */
export function assistanceCaseCalls(api: Client<paths>) {
  const list = (query: AssistanceCaseQuery = {}) => api.GET(CASES, { params: { query } });
  const onCase = (caseRef: string) => ({ params: { path: { caseRef } } });
  return {
    list,
    /** Every case you may read matching `query`, item by item. */
    all: (query: Omit<AssistanceCaseQuery, 'page'> = {}): AsyncGenerator<Schemas['AssistanceCase']> =>
      everyItem(CASES, list, query, 'openedTo'),
    get: (caseRef: string) => api.GET(`${CASES}/{caseRef}`, onCase(caseRef)),
    addUpdate: (caseRef: string, body: Schemas['AssistanceCaseUpdateRequest']) =>
      api.POST(`${CASES}/{caseRef}/updates`, { ...onCase(caseRef), body }),
    withdraw: (caseRef: string, body: Schemas['AssistanceCaseWithdrawalRequest']) =>
      api.POST(`${CASES}/{caseRef}/withdrawal`, { ...onCase(caseRef), body }),
  };
}
