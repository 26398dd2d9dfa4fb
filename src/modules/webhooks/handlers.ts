import { springPage } from '../../kernel/http/pagination';
import { successBody } from '../../kernel/http/envelope';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import { createKeyHeader, idempotentCreate } from '../../kernel/http/idempotent-create';
import { eventOfCompany, eventWire, listEventLog } from './event-log';
import type { Schemas } from '../../kernel/http/wire';
import type { OperationPolicies, OperationPolicy } from '../../kernel/http/operation-policy';
import type { WebhookEndpoint } from './entities/webhook-endpoint';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  ownEndpoint,
  rotateEndpointSecret,
  sendTestDelivery,
  updateEndpoint,
} from './endpoint-registry';
import { deliveryView, listDeliveryLog, replayToEndpoint, retryDelivery, type DeliveryView } from './delivery-log';

const TEST_MESSAGE = 'A test event you asked for: your endpoint receives and verifies deliveries.';

export const webhookHandlers = {
  async listEvents({ query }, scope) {
    const { events, request, total } = await listEventLog(scope.em, callerOf(scope), query);
    return { status: 200, body: successBody(springPage(events.map(eventWire), request, total), 'Events retrieved') };
  },

  async getEvent({ params }, scope) {
    return {
      status: 200,
      body: successBody(eventWire(await eventOfCompany(scope.em, callerOf(scope), params.eventId)), 'Event retrieved'),
    };
  },

  async createWebhookEndpoint({ body, headers }, scope) {
    const { companyId } = callerOf(scope);
    // The replayed answer carries the secret again: it is kept in the endpoint's row anyway (it signs).
    return idempotentCreate(
      scope.em,
      { companyId, operation: 'createWebhookEndpoint', key: createKeyHeader(headers), request: body },
      async (em) => {
        const { endpoint, secret } = await createEndpoint(em, companyId, body, scope.services.config.webhooks);
        return {
          status: 201 as const,
          body: successBody({ ...endpointWire(endpoint), secret }, 'Webhook endpoint registered'),
        };
      },
    );
  },

  async listWebhookEndpoints(_request, scope) {
    const endpoints = await listEndpoints(scope.em, callerOf(scope).companyId);
    return { status: 200, body: successBody(endpoints.map(endpointWire)) };
  },

  async getWebhookEndpoint({ params }, scope) {
    return {
      status: 200,
      body: successBody(endpointWire(await ownEndpoint(scope.em, callerOf(scope).companyId, params.endpointId))),
    };
  },

  async updateWebhookEndpoint({ params, body }, scope) {
    const endpoint = await updateEndpoint(
      scope.em,
      callerOf(scope).companyId,
      params.endpointId,
      body,
      scope.services.config.webhooks,
    );
    return { status: 200, body: successBody(endpointWire(endpoint), 'Webhook endpoint updated') };
  },

  async deleteWebhookEndpoint({ params }, scope) {
    const endpoint = await deleteEndpoint(scope.em, callerOf(scope).companyId, params.endpointId);
    return { status: 200, body: successBody(endpointWire(endpoint), 'Webhook endpoint deleted') };
  },

  async rotateWebhookEndpointSecret({ params }, scope) {
    const { endpoint, secret } = await rotateEndpointSecret(
      scope.em,
      callerOf(scope).companyId,
      params.endpointId,
      scope.services.config.webhooks.secretOverlapHours,
    );
    return { status: 200, body: successBody({ ...endpointWire(endpoint), secret }, 'Webhook secret rotated') };
  },

  async testWebhookEndpoint({ params }, scope) {
    const delivery = await sendTestDelivery(scope.em, callerOf(scope).companyId, params.endpointId, TEST_MESSAGE);
    return {
      status: 202,
      body: successBody(deliveryWire(await deliveryView(scope.em, delivery)), 'Test event queued'),
    };
  },

  async replayWebhookEndpoint({ params, body }, scope) {
    const replayed = await replayToEndpoint(scope.em, callerOf(scope).companyId, params.endpointId, {
      since: new Date(body.since),
      types: body.types,
    });
    return { status: 202, body: successBody({ replayed }, 'Events queued for the endpoint') };
  },

  async listWebhookDeliveries({ query }, scope) {
    const { views, request, total } = await listDeliveryLog(scope.em, callerOf(scope).companyId, query);
    return { status: 200, body: successBody(springPage(views.map(deliveryWire), request, total)) };
  },

  async retryWebhookDelivery({ params }, scope) {
    const view = await retryDelivery(scope.em, callerOf(scope).companyId, params.deliveryId);
    return { status: 202, body: successBody(deliveryWire(view), 'Delivery queued again') };
  },
} satisfies TagHandlers;

export function endpointWire(endpoint: WebhookEndpoint): Schemas['WebhookEndpoint'] {
  return {
    endpointId: endpoint.id,
    url: endpoint.url,
    // Stored only after the contract's check of `events`.
    events: endpoint.events as Schemas['WebhookEndpointEvents'],
    description: endpoint.description ?? null,
    enabled: endpoint.enabled,
    previousSecretExpiresAt:
      endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date()
        ? endpoint.previousSecretUntil.toISOString()
        : null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function deliveryWire({ delivery, tries, payload }: DeliveryView): Schemas['WebhookDelivery'] {
  return {
    deliveryId: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    // Written only by recordWebhookEvent, whose type is the contract's enum.
    eventType: delivery.eventType as Schemas['WebhookEventType'],
    status: delivery.status,
    tries: tries.map((line) => ({
      attempt: line.attempt,
      at: line.at.toISOString(),
      responseStatus: line.responseCode ?? null,
      latencyMs: line.latencyMs,
      error: line.error ?? null,
    })),
    nextRetryAt: delivery.status === 'PENDING' ? (delivery.nextRetryAt?.toISOString() ?? null) : null,
    createdAt: delivery.createdAt.toISOString(),
    payload,
  };
}

/** Every change to endpoints and deliveries counts against one per-company write limit (reads are not limited, like other reads). */
const webhookWrite: OperationPolicy = {
  rateLimits: [{ counter: 'webhook', limit: (limits) => limits.webhookPerCompany }],
};

export const webhookPolicies = {
  createWebhookEndpoint: webhookWrite,
  updateWebhookEndpoint: webhookWrite,
  deleteWebhookEndpoint: webhookWrite,
  rotateWebhookEndpointSecret: webhookWrite,
  testWebhookEndpoint: webhookWrite,
  replayWebhookEndpoint: webhookWrite,
  retryWebhookDelivery: webhookWrite,
} satisfies OperationPolicies;
