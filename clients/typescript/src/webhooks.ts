import { randomUUID } from 'node:crypto';
import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';
import type { OperationResult } from './operation-result';
import { everyItem } from './pages';

type Schemas = components['schemas'];
type DeliveryQuery = NonNullable<paths['/api/external/v1/webhook-deliveries']['get']['parameters']['query']>;

const ENDPOINTS = '/api/external/v1/webhook-endpoints';
const ENDPOINT = '/api/external/v1/webhook-endpoints/{endpointId}';
const DELIVERIES = '/api/external/v1/webhook-deliveries';

/**
 * Your webhook endpoints and their delivery log (the "Webhook endpoints" operations). Each call
 * answers openapi-fetch's `{ data, error, response }`; `create` and `rotateSecret` carry the
 * `whsec_` secret in `data.data.secret`, shown only then: store it at once. `create` sends an
 * Idempotency-Key that every retry of the call sends again (pass your own stored one to repeat
 * it), so a registration retried after a timeout answers the first endpoint and its secret
 * instead of registering a second one.
 */
export function webhookCalls(api: Client<paths>) {
  const endpoint = (endpointId: string) => ({ params: { path: { endpointId } } });
  const calls = {
    create: (
      body: Schemas['WebhookEndpointInput'],
      options: { idempotencyKey?: string } = {},
    ): Promise<OperationResult<'createWebhookEndpoint'>> =>
      api.POST(ENDPOINTS, { body, params: { header: { 'Idempotency-Key': options.idempotencyKey ?? randomUUID() } } }),
    list: (): Promise<OperationResult<'listWebhookEndpoints'>> => api.GET(ENDPOINTS),
    get: (endpointId: string): Promise<OperationResult<'getWebhookEndpoint'>> =>
      api.GET(ENDPOINT, endpoint(endpointId)),
    update: (
      endpointId: string,
      body: Schemas['WebhookEndpointUpdate'],
    ): Promise<OperationResult<'updateWebhookEndpoint'>> => api.PATCH(ENDPOINT, { ...endpoint(endpointId), body }),
    remove: (endpointId: string): Promise<OperationResult<'deleteWebhookEndpoint'>> =>
      api.DELETE(ENDPOINT, endpoint(endpointId)),
    rotateSecret: (endpointId: string): Promise<OperationResult<'rotateWebhookEndpointSecret'>> =>
      api.POST(`${ENDPOINT}/rotate-secret`, endpoint(endpointId)),
    sendTest: (endpointId: string): Promise<OperationResult<'testWebhookEndpoint'>> =>
      api.POST(`${ENDPOINT}/test`, endpoint(endpointId)),
    listDeliveries: (query: DeliveryQuery = {}): Promise<OperationResult<'listWebhookDeliveries'>> =>
      api.GET(DELIVERIES, { params: { query } }),
    retryDelivery: (deliveryId: string): Promise<OperationResult<'retryWebhookDelivery'>> =>
      api.POST(`${DELIVERIES}/{deliveryId}/retry`, { params: { path: { deliveryId } } }),
    /** POST /webhook-endpoints/{endpointId}/replay: re-sends your events since a time (of some types) to the endpoint; answers how many. */
    replay: (
      endpointId: string,
      body: Schemas['EventReplayRequest'],
    ): Promise<OperationResult<'replayWebhookEndpoint'>> =>
      api.POST(`${ENDPOINT}/replay`, { ...endpoint(endpointId), body }),
    /**
     * Every delivery matching `query`, newest first, item by item (the client's one iterator:
     * pages after the first keep `to` at the first answer's time). A refused page throws ListPageError.
     */
    deliveries: (query: Omit<DeliveryQuery, 'page'> = {}): AsyncGenerator<Schemas['WebhookDelivery']> =>
      everyItem(DELIVERIES, calls.listDeliveries, query, 'to'),
  };
  return calls;
}

export type WebhookCalls = ReturnType<typeof webhookCalls>;
