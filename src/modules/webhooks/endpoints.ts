import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookConfig } from './settings';
import { Company } from '../partners/entities/company';
import { WebhookEndpoint, ALL_EVENTS } from './entities/webhook-endpoint';
import type { WebhookDeliveryStatus } from './entities/webhook-delivery';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { DomainError } from '../../kernel/errors';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  ownEndpoint,
  rotateEndpointSecret,
  sendTestDelivery,
  updateEndpoint,
} from './endpoint-registry';
import { listDeliveryLog, replayDeliveries } from './delivery-log';

/**
 * The operator's view of the same endpoints partners manage through the API (`ops webhook ...`).
 * A company with one endpoint is addressed by the company alone, as before endpoints were
 * self-service; with several, `endpointId` says which.
 */
export interface EndpointView {
  endpointId: string;
  companyId: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** Present only when a secret was just issued: it is never shown again. */
  secret?: string;
  previousSecretUntil: string | null;
}

function view(endpoint: WebhookEndpoint, secret?: string): EndpointView {
  return {
    endpointId: endpoint.id,
    companyId: endpoint.companyId,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.enabled,
    ...(secret ? { secret } : {}),
    previousSecretUntil: endpoint.previousSecretUntil?.toISOString() ?? null,
  };
}

/** The kernel's refusals (a partner's 4xx) become the command line's, with the same message. */
async function asOperator<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DomainError) throw new OperatorRefusal(error.message);
    throw error;
  }
}

/** The endpoint a command is about: the one named, or the company's only one. */
async function endpointOf(em: EntityManager, companyId: string, endpointId?: string): Promise<WebhookEndpoint> {
  if (endpointId) return asOperator(ownEndpoint(em, companyId, endpointId));
  const endpoints = await listEndpoints(em, companyId);
  const [only] = endpoints;
  if (!only) throw new OperatorRefusal(`company ${companyId} has no webhook endpoint`);
  if (endpoints.length > 1)
    throw new OperatorRefusal(
      `company ${companyId} has ${endpoints.length} webhook endpoints: name one with --endpoint (ops webhook list ${companyId})`,
    );
  return only;
}

export async function listCompanyEndpoints(em: EntityManager, companyId: string): Promise<EndpointView[]> {
  return (await listEndpoints(em, companyId)).map((endpoint) => view(endpoint));
}

/**
 * `ops webhook set`: a company without an endpoint gets one for every event, with a new secret
 * (returned once); the endpoint named (or the company's only one) moves to the new URL keeping
 * its secret. `--new` adds another endpoint.
 */
export async function setEndpoint(
  em: EntityManager,
  companyId: string,
  url: string,
  config: Pick<WebhookConfig, 'allowLocalEndpoints'>,
  options: { endpointId?: string; add?: boolean } = {},
): Promise<EndpointView> {
  if (!(await em.findOne(Company, companyId))) throw new OperatorRefusal(`no company ${companyId}`);
  const existing = await listEndpoints(em, companyId);
  if (options.add || existing.length === 0) {
    const { endpoint, secret } = await asOperator(createEndpoint(em, companyId, { url, events: [ALL_EVENTS] }, config));
    return view(endpoint, secret);
  }
  const target = await endpointOf(em, companyId, options.endpointId);
  return view(await asOperator(updateEndpoint(em, companyId, target.id, { url }, config)));
}

export async function removeEndpoint(
  em: EntityManager,
  companyId: string,
  endpointId?: string,
): Promise<{ companyId: string; endpointId: string | null; removed: boolean }> {
  const endpoints = await listEndpoints(em, companyId);
  if (endpoints.length === 0 && !endpointId) return { companyId, endpointId: null, removed: false };
  const target = await endpointOf(em, companyId, endpointId);
  await asOperator(deleteEndpoint(em, companyId, target.id));
  return { companyId, endpointId: target.id, removed: true };
}

/** `ops webhook rotate-secret`: a new secret (returned once); the old one keeps signing beside it for `overlapHours`. */
export async function rotateSecret(
  em: EntityManager,
  companyId: string,
  overlapHours: number,
  endpointId?: string,
): Promise<EndpointView> {
  const target = await endpointOf(em, companyId, endpointId);
  const { endpoint, secret } = await asOperator(rotateEndpointSecret(em, companyId, target.id, overlapHours));
  return view(endpoint, secret);
}

/** `ops webhook test`: a `webhook.test` delivery through the queue like any other. */
export async function sendTestEvent(
  em: EntityManager,
  companyId: string,
  endpointId?: string,
): Promise<{ eventId: string; deliveryId: string }> {
  const target = await endpointOf(em, companyId, endpointId);
  const delivery = await asOperator(
    sendTestDelivery(
      em,
      companyId,
      target.id,
      'A test event sent by the operator: your endpoint receives and verifies deliveries.',
    ),
  );
  return { eventId: delivery.eventId, deliveryId: delivery.id };
}

export interface DeliveryLogLine {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  type: string;
  status: string;
  createdAt: string;
  attempts: {
    attempt: number;
    outcome: string;
    responseCode: number | null;
    latencyMs: number;
    error: string | null;
    nextRetryAt: string | null;
    at: string;
  }[];
}

/** `ops webhook deliveries`: a company's latest deliveries (every endpoint), each with its tries. */
export async function listDeliveries(
  em: EntityManager,
  companyId: string,
  options: { limit: number; status?: WebhookDeliveryStatus; endpointId?: string },
): Promise<DeliveryLogLine[]> {
  const { views } = await asOperator(
    listDeliveryLog(em, companyId, { status: options.status, endpointId: options.endpointId, size: options.limit }),
  );
  return views.map(({ delivery, tries }) => ({
    deliveryId: delivery.id,
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    type: delivery.eventType,
    status: delivery.status,
    createdAt: delivery.createdAt.toISOString(),
    attempts: tries.map((line) => ({
      attempt: line.attempt,
      outcome: line.outcome,
      responseCode: line.responseCode ?? null,
      latencyMs: line.latencyMs,
      error: line.error ?? null,
      nextRetryAt: line.nextRetryAt?.toISOString() ?? null,
      at: line.at.toISOString(),
    })),
  }));
}

/** `ops webhook replay`: see replayDeliveries. */
export function replayEvents(
  em: EntityManager,
  selection: Parameters<typeof replayDeliveries>[1],
): Promise<{ replayed: string[] }> {
  return asOperator(replayDeliveries(em, selection));
}
