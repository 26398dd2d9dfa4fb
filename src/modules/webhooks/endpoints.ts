import { lookup } from 'node:dns/promises';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookConfig } from './settings';
import { endpointUrlProblem, isPublicAddress } from './rules/endpoint-address';
import { newWebhookSecret } from './rules/signature';
import { Company } from '../partners/entities/company';
import { WebhookDelivery } from './entities/webhook-delivery';
import { WebhookEndpoint } from './entities/webhook-endpoint';
import { WebhookEvent, type WebhookEventStatus } from './entities/webhook-event';
import { OperatorRefusal } from '../../kernel/operator-refusal';
import { recordWebhookEvent } from './events';

export interface EndpointView {
  companyId: string;
  url: string;
  /** Present only when a secret was just issued: it is never shown again. */
  secret?: string;
  previousSecretUntil: string | null;
}

function view(endpoint: WebhookEndpoint, secret?: string): EndpointView {
  return { companyId: endpoint.companyId, url: endpoint.url, ...(secret ? { secret } : {}), previousSecretUntil: endpoint.previousSecretUntil?.toISOString() ?? null };
}

/**
 * Refuses an endpoint URL a delivery could not safely go to: outside sandbox not HTTPS, or whose
 * host resolves (now) to a loopback, private or link-local address. Delivery checks the addresses
 * again on every connection (DNS can change after registration).
 */
export async function assertEndpointAllowed(url: string, config: Pick<WebhookConfig, 'allowLocalEndpoints'>): Promise<void> {
  const problem = endpointUrlProblem(url, config.allowLocalEndpoints);
  if (problem) throw new OperatorRefusal(`the endpoint URL ${problem}`);
  if (config.allowLocalEndpoints) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const addresses = await lookup(host, { all: true }).catch(() => {
    throw new OperatorRefusal(`the endpoint host ${host} does not resolve`);
  });
  const internal = addresses.find((entry) => !isPublicAddress(entry.address));
  if (internal) throw new OperatorRefusal(`the endpoint host ${host} resolves to ${internal.address}, a loopback, private or link-local address`);
}

/** `ops webhook set`: creates the company's endpoint with a new secret (returned once), or moves it to a new URL keeping its secret. */
export async function setEndpoint(em: EntityManager, companyId: string, url: string, config: Pick<WebhookConfig, 'allowLocalEndpoints'>): Promise<EndpointView> {
  await assertEndpointAllowed(url, config);
  return em.transactional(async (tx) => {
    await tx.findOneOrFail(Company, companyId, { failHandler: () => new OperatorRefusal(`no company ${companyId}`) });
    const existing = await tx.findOne(WebhookEndpoint, { companyId });
    if (existing) {
      existing.url = url;
      return view(existing);
    }
    const secret = newWebhookSecret();
    const created = tx.create(WebhookEndpoint, { companyId, url, secret });
    return view(created, secret);
  });
}

export async function removeEndpoint(em: EntityManager, companyId: string): Promise<{ companyId: string; removed: boolean }> {
  const removed = await em.nativeDelete(WebhookEndpoint, { companyId });
  return { companyId, removed: removed > 0 };
}

/**
 * `ops webhook rotate-secret`: a new secret (returned once); the old one keeps signing beside it
 * for `overlapHours`, so the partner can switch its verifier without missing a delivery.
 */
export async function rotateSecret(em: EntityManager, companyId: string, overlapHours: number, now = new Date()): Promise<EndpointView> {
  return em.transactional(async (tx) => {
    const endpoint = await tx.findOne(WebhookEndpoint, { companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!endpoint) throw new OperatorRefusal(`company ${companyId} has no webhook endpoint`);
    const secret = newWebhookSecret();
    endpoint.previousSecret = endpoint.secret;
    endpoint.previousSecretUntil = new Date(now.getTime() + overlapHours * 3600_000);
    endpoint.secret = secret;
    return view(endpoint, secret);
  });
}

export interface DeliveryLogLine {
  eventId: string;
  type: string;
  status: string;
  createdAt: string;
  attempts: { attempt: number; outcome: string; responseCode: number | null; latencyMs: number; error: string | null; nextRetryAt: string | null; at: string }[];
}

/** `ops webhook deliveries`: a company's latest events, each with its delivery log. */
export async function listDeliveries(em: EntityManager, companyId: string, options: { limit: number; status?: WebhookEventStatus }): Promise<DeliveryLogLine[]> {
  const events = await em.find(
    WebhookEvent,
    { companyId, ...(options.status ? { status: options.status } : {}) },
    { orderBy: { createdAt: 'desc', id: 'asc' }, limit: options.limit },
  );
  const deliveries = await em.find(WebhookDelivery, { eventId: { $in: events.map((event) => event.id) } }, { orderBy: { at: 'asc' } });
  return events.map((event) => ({
    eventId: event.id,
    type: event.type,
    status: event.status,
    createdAt: event.createdAt.toISOString(),
    attempts: deliveries.filter((delivery) => delivery.eventId === event.id).map((delivery) => ({
      attempt: delivery.attempt,
      outcome: delivery.outcome,
      responseCode: delivery.responseCode ?? null,
      latencyMs: delivery.latencyMs,
      error: delivery.error ?? null,
      nextRetryAt: delivery.nextRetryAt?.toISOString() ?? null,
      at: delivery.at.toISOString(),
    })),
  }));
}

/**
 * `ops webhook replay`: the events go back to the outbox (same id, same body), and the queue
 * delivers them again with a fresh retry schedule. One event by id, or every event that gave up
 * (FAILED) since a time, optionally of one company.
 */
export async function replayEvents(em: EntityManager, selection: { eventId: string } | { failedSince: Date; companyId?: string }): Promise<{ replayed: string[] }> {
  return em.transactional(async (tx) => {
    const where = 'eventId' in selection
      ? { id: selection.eventId }
      : { status: 'FAILED' as const, createdAt: { $gte: selection.failedSince }, ...(selection.companyId ? { companyId: selection.companyId } : {}) };
    const events = await tx.find(WebhookEvent, where, { orderBy: { createdAt: 'asc' } });
    if ('eventId' in selection && events.length === 0) throw new OperatorRefusal(`no webhook event ${selection.eventId}`);
    for (const event of events) {
      event.status = 'PENDING';
      event.enqueuedAt = null;
      event.leaseUntil = null;
    }
    return { replayed: events.map((event) => event.id) };
  });
}

/** `ops webhook test`: a `webhook.test` event through the outbox and the queue like any other. */
export async function sendTestEvent(em: EntityManager, companyId: string): Promise<{ eventId: string }> {
  return em.transactional(async (tx) => {
    const endpoint = await tx.findOne(WebhookEndpoint, { companyId });
    if (!endpoint) throw new OperatorRefusal(`company ${companyId} has no webhook endpoint`);
    const event = recordWebhookEvent(tx, companyId, 'webhook.test', { message: 'A test event sent by the operator: your endpoint receives and verifies deliveries.' });
    return { eventId: event.id };
  });
}
