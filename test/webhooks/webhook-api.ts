import type { ApiClient, ApiResponse, WireJson } from '../support/http-client';
import type { TestPartner } from '../support/partners';

/** The webhook endpoint and delivery operations as a partner calls them, each answer checked against the contract. */
export const ENDPOINTS = '/api/external/v1/webhook-endpoints';
export const DELIVERIES = '/api/external/v1/webhook-deliveries';

export function webhookApi(client: ApiClient) {
  const as = (partner: TestPartner) => ({ token: partner.token });
  return {
    create: (partner: TestPartner, body: WireJson): Promise<ApiResponse> =>
      client.op('createWebhookEndpoint', 'POST', ENDPOINTS, body, as(partner)),
    list: (partner: TestPartner): Promise<ApiResponse> =>
      client.op('listWebhookEndpoints', 'GET', ENDPOINTS, undefined, as(partner)),
    get: (partner: TestPartner, id: string): Promise<ApiResponse> =>
      client.op('getWebhookEndpoint', 'GET', `${ENDPOINTS}/${id}`, undefined, as(partner)),
    update: (partner: TestPartner, id: string, body: WireJson): Promise<ApiResponse> =>
      client.op('updateWebhookEndpoint', 'PATCH', `${ENDPOINTS}/${id}`, body, as(partner)),
    remove: (partner: TestPartner, id: string): Promise<ApiResponse> =>
      client.op('deleteWebhookEndpoint', 'DELETE', `${ENDPOINTS}/${id}`, undefined, as(partner)),
    rotate: (partner: TestPartner, id: string): Promise<ApiResponse> =>
      client.op('rotateWebhookEndpointSecret', 'POST', `${ENDPOINTS}/${id}/rotate-secret`, undefined, as(partner)),
    test: (partner: TestPartner, id: string): Promise<ApiResponse> =>
      client.op('testWebhookEndpoint', 'POST', `${ENDPOINTS}/${id}/test`, undefined, as(partner)),
    deliveries: (partner: TestPartner, query: Record<string, string | number> = {}): Promise<ApiResponse> =>
      client.op('listWebhookDeliveries', 'GET', DELIVERIES, undefined, { ...as(partner), query }),
    retry: (partner: TestPartner, id: string): Promise<ApiResponse> =>
      client.op('retryWebhookDelivery', 'POST', `${DELIVERIES}/${id}/retry`, undefined, as(partner)),
  };
}
