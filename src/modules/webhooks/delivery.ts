import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookConfig } from './settings';
import { claimDelivery } from './delivery-claim';
import { endpointUrlProblem } from './rules/endpoint-address';
import { signedHeaders } from './rules/signature';
import { WebhookDeliveryTry, type TryOutcome } from './entities/webhook-delivery-try';
import type { WebhookDeliveryStatus } from './entities/webhook-delivery';
import { WebhookEndpoint } from './entities/webhook-endpoint';
import { WebhookEvent } from './entities/webhook-event';
import type { Logger } from '../../kernel/logging/logger';
import type { SendResult, WebhookSender } from './sender';

export interface DeliveryDeps {
  webhooks: WebhookConfig;
  sender: WebhookSender;
  logger: Logger;
}

/** Which job, and which try of it: pg-boss counts retries from 0. */
export interface JobTry {
  jobId: string;
  retryCount: number;
  retryLimit: number;
}

/** NO_SLOT: not tried, its company has as many deliveries in flight as it may (delivery-claim.ts). */
export type DeliveryResult = 'DELIVERED' | 'RETRY' | 'GAVE_UP' | 'NOT_DUE' | 'NO_SLOT';

/** The secrets a delivery is signed with: the current one, and the replaced one while its overlap lasts. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const previousValid = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now;
  return previousValid && endpoint.previousSecret ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
}

/** How long a try holds its delivery: the request's timeout and a margin for the bookkeeping around it. */
export function deliveryLeaseSeconds(config: Pick<WebhookConfig, 'timeoutMs'>): number {
  return Math.ceil(config.timeoutMs / 1000) + 15;
}

/**
 * When pg-boss will try again after failed try `retryCount` (its back-off: retryDelay times
 * 2^(n+1)/2 to 2^(n+1), capped): the middle of that range, for the delivery log.
 */
export function expectedRetryAt(config: WebhookConfig, retryCount: number, now: Date): Date {
  const seconds = Math.min(
    config.retryDelayMaxSeconds,
    config.retryDelaySeconds * 0.75 * 2 ** Math.min(16, retryCount + 1),
  );
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * One try at one delivery (one event to one endpoint), run by the queue's worker. The delivery is
 * claimed first with a lease (no lock held while the request runs), so two processes never send
 * it at the same time, and only while its company has a free slot (delivery-claim.ts); a process
 * killed mid-send leaves a lease that runs out, and the queue's retry of its job sends it again.
 * The try is logged whatever happens. RETRY tells the worker to fail the job so that pg-boss
 * schedules the next try with its back-off; NO_SLOT, to put it back untried. A disabled endpoint,
 * or one whose address breaks the rules, ends the delivery FAILED at once.
 */
export async function deliverOnce(
  em: EntityManager,
  deliveryId: string,
  job: JobTry,
  deps: DeliveryDeps,
  now = new Date(),
): Promise<DeliveryResult> {
  const claiming = await claimDelivery(em, deliveryId, job.jobId, {
    leaseSeconds: deliveryLeaseSeconds(deps.webhooks),
    perCompany: deps.webhooks.concurrencyPerCompany,
  });
  if ('refused' in claiming) return claiming.refused;
  const claim = claiming.claimed;
  const event = await em.findOneOrFail(WebhookEvent, claim.event_id);
  const endpoint = await em.findOneOrFail(WebhookEndpoint, claim.endpoint_id);

  const body = JSON.stringify(event.payload);
  const problem = endpoint.enabled
    ? endpointUrlProblem(endpoint.url, deps.webhooks.allowLocalEndpoints)
    : 'is disabled';
  const sent: SendResult = problem
    ? { latencyMs: 0, error: `endpoint ${problem}`, refused: true }
    : await deps.sender.post(
        endpoint.url,
        { ...signedHeaders(signingSecrets(endpoint, now), event.id, now, body) },
        body,
      );
  const delivered = sent.status !== undefined && sent.status >= 200 && sent.status < 300;
  // Refused before any request (address rules, disabled): trying again on the schedule would change nothing.
  const lastTry = job.retryCount >= job.retryLimit || problem !== undefined;
  const outcome: TryOutcome = delivered ? 'DELIVERED' : sent.refused ? 'REFUSED' : 'FAILED';
  const result: DeliveryResult = delivered ? 'DELIVERED' : lastTry ? 'GAVE_UP' : 'RETRY';
  const nextRetryAt = result === 'RETRY' ? expectedRetryAt(deps.webhooks, job.retryCount, new Date()) : null;

  await em.fork().transactional(async (tx) => {
    tx.create(WebhookDeliveryTry, {
      deliveryId,
      eventId: event.id,
      attempt: claim.attempts,
      url: endpoint.url,
      outcome,
      responseCode: sent.status ?? null,
      latencyMs: sent.latencyMs,
      error: sent.error ?? (delivered ? null : `answered ${sent.status}`),
      nextRetryAt,
    });
    await tx.flush();
    const status: WebhookDeliveryStatus =
      result === 'DELIVERED' ? 'SUCCEEDED' : result === 'GAVE_UP' ? 'FAILED' : 'PENDING';
    await tx.execute(`update webhook_delivery set status = ?, lease_until = null, next_retry_at = ? where id = ?`, [
      status,
      nextRetryAt,
      deliveryId,
    ]);
  });
  const log = {
    deliveryId,
    eventId: event.id,
    endpointId: endpoint.id,
    type: event.type,
    attempt: claim.attempts,
    status: sent.status,
    latencyMs: sent.latencyMs,
    error: sent.error,
  };
  if (delivered) deps.logger.debug(log, 'webhook delivered');
  else deps.logger.warn({ ...log, result }, 'webhook delivery failed');
  return result;
}
