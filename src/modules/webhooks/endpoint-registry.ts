import { lookup } from 'node:dns/promises';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookConfig } from './settings';
import { endpointUrlProblem, isPublicAddress } from './rules/endpoint-address';
import { newWebhookSecret } from './rules/signature';
import { Company } from '../partners/entities/company';
import { WebhookDelivery } from './entities/webhook-delivery';
import { WebhookEndpoint } from './entities/webhook-endpoint';
import { recordWebhookEvent } from './events';
import { conflict, invalid, notFound } from '../../kernel/errors';

/** Decision record 0061: enough for production, staging and a spare, not a fan-out service. */
export const MAX_ENDPOINTS_PER_COMPANY = 5;

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

export interface EndpointChange {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** An endpoint with the secret just issued: the only moment the secret is shown. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

const urlRefused = (problem: string) => invalid(`the endpoint URL ${problem}`, { url: problem });

/**
 * Refuses an endpoint URL a delivery could not safely go to: outside sandbox not HTTPS, or whose
 * host resolves (now) to a non-public address. Delivery checks the addresses again on every
 * connection (DNS can change after registration). Runs before any transaction: a lookup can be slow.
 */
export async function assertEndpointAllowed(
  url: string,
  config: Pick<WebhookConfig, 'allowLocalEndpoints'>,
): Promise<void> {
  const problem = endpointUrlProblem(url, config.allowLocalEndpoints);
  if (problem) throw urlRefused(problem);
  if (config.allowLocalEndpoints) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  // One answer whether the name resolves to nothing or to an internal address, and which address
  // stays unsaid: a stranger could otherwise learn which internal host names exist.
  const refused = () => urlRefused(`host ${host} does not resolve to a public address`);
  const addresses = await lookup(host, { all: true }).catch(() => {
    throw refused();
  });
  if (addresses.length === 0 || addresses.some((entry) => !isPublicAddress(entry.address))) throw refused();
}

/** One of the company's endpoints; another company's is as unknown as one that does not exist. */
export async function ownEndpoint(
  em: EntityManager,
  companyId: string,
  endpointId: string,
  lock = false,
): Promise<WebhookEndpoint> {
  const endpoint = await em.findOne(
    WebhookEndpoint,
    { id: endpointId, companyId },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!endpoint) throw notFound('Webhook endpoint not found');
  return endpoint;
}

export function listEndpoints(em: EntityManager, companyId: string): Promise<WebhookEndpoint[]> {
  return em.find(WebhookEndpoint, { companyId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/**
 * A new endpoint with a new secret. The company's row is locked while its endpoints are counted,
 * so two registrations at once cannot both be the fifth.
 */
export async function createEndpoint(
  em: EntityManager,
  companyId: string,
  input: EndpointInput,
  config: Pick<WebhookConfig, 'allowLocalEndpoints'>,
): Promise<EndpointWithSecret> {
  await assertEndpointAllowed(input.url, config);
  return em.transactional(async (tx) => {
    await tx.findOneOrFail(Company, companyId, {
      lockMode: LockMode.PESSIMISTIC_WRITE,
      failHandler: () => notFound(`no company ${companyId}`),
    });
    const count = await tx.count(WebhookEndpoint, { companyId });
    if (count >= MAX_ENDPOINTS_PER_COMPANY)
      throw conflict(`A company has at most ${MAX_ENDPOINTS_PER_COMPANY} webhook endpoints`);
    const secret = newWebhookSecret();
    const endpoint = tx.create(WebhookEndpoint, {
      companyId,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secret,
    });
    return { endpoint, secret };
  });
}

export async function updateEndpoint(
  em: EntityManager,
  companyId: string,
  endpointId: string,
  change: EndpointChange,
  config: Pick<WebhookConfig, 'allowLocalEndpoints'>,
): Promise<WebhookEndpoint> {
  if (change.url !== undefined) await assertEndpointAllowed(change.url, config);
  return em.transactional(async (tx) => {
    const endpoint = await ownEndpoint(tx, companyId, endpointId, true);
    if (change.url !== undefined) endpoint.url = change.url;
    if (change.events !== undefined) endpoint.events = change.events;
    if (change.description !== undefined) endpoint.description = change.description;
    if (change.enabled !== undefined) endpoint.enabled = change.enabled;
    endpoint.updatedAt = new Date();
    return endpoint;
  });
}

/** Deletes the endpoint; its deliveries and their tries go with it (the database cascades). */
export async function deleteEndpoint(
  em: EntityManager,
  companyId: string,
  endpointId: string,
): Promise<WebhookEndpoint> {
  return em.transactional(async (tx) => {
    const endpoint = await ownEndpoint(tx, companyId, endpointId, true);
    tx.remove(endpoint);
    return endpoint;
  });
}

/**
 * A new secret (returned once); the old one keeps signing beside it for `overlapHours`, so the
 * partner can switch its verifier without missing a delivery. A second rotation replaces the
 * older overlap: only the secret just replaced still signs.
 */
export async function rotateEndpointSecret(
  em: EntityManager,
  companyId: string,
  endpointId: string,
  overlapHours: number,
  now = new Date(),
): Promise<EndpointWithSecret> {
  return em.transactional(async (tx) => {
    const endpoint = await ownEndpoint(tx, companyId, endpointId, true);
    const secret = newWebhookSecret();
    endpoint.previousSecret = endpoint.secret;
    endpoint.previousSecretUntil = new Date(now.getTime() + overlapHours * 3600_000);
    endpoint.secret = secret;
    endpoint.updatedAt = now;
    return { endpoint, secret };
  });
}

/**
 * A `webhook.test` event for this one endpoint, whatever event types it subscribes to (a disabled
 * endpoint's delivery fails without a request, like any other). It is written already fanned out,
 * its one delivery made here, so the relay only queues that delivery.
 */
export async function sendTestDelivery(
  em: EntityManager,
  companyId: string,
  endpointId: string,
  message: string,
): Promise<WebhookDelivery> {
  return em.transactional(async (tx) => {
    const endpoint = await ownEndpoint(tx, companyId, endpointId);
    const now = new Date();
    const event = recordWebhookEvent(tx, companyId, 'webhook.test', { message }, now);
    event.enqueuedAt = now;
    event.status = 'DISPATCHED';
    // The delivery's row refers to the event's: the event is written first.
    await tx.flush();
    return tx.create(WebhookDelivery, {
      eventId: event.id,
      endpointId: endpoint.id,
      companyId,
      eventType: event.type,
      createdAt: now,
    });
  });
}
