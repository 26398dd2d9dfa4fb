import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookConfig } from './settings';
import { endpointUrlProblem } from './rules/endpoint-address';
import { signedHeaders } from './rules/signature';
import { WebhookDelivery, type DeliveryOutcome } from './entities/webhook-delivery';
import { WebhookEndpoint } from './entities/webhook-endpoint';
import { WebhookEvent } from './entities/webhook-event';
import type { Logger } from '../../kernel/logging/logger';
import type { WebhookSender } from './sender';

export interface DeliveryDeps {
  webhooks: WebhookConfig;
  sender: WebhookSender;
  logger: Logger;
}

/** Which try of the queue job this is: pg-boss counts retries from 0. */
export interface JobTry {
  retryCount: number;
  retryLimit: number;
}

export type DeliveryResult = 'DELIVERED' | 'RETRY' | 'GAVE_UP' | 'NO_ENDPOINT' | 'NOT_DUE';

/** The secrets a delivery is signed with: the current one, and the replaced one while its overlap lasts. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const previousValid = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now;
  return previousValid && endpoint.previousSecret ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
}

/** How long a try holds its event: the request's timeout and a margin for the bookkeeping around it. */
export function deliveryLeaseSeconds(config: Pick<WebhookConfig, 'timeoutMs'>): number {
  return Math.ceil(config.timeoutMs / 1000) + 15;
}

/**
 * When pg-boss will try again after failed try `retryCount` (its back-off: retryDelay times
 * 2^(n+1)/2 to 2^(n+1), capped): the middle of that range, for the delivery log.
 */
export function expectedRetryAt(config: WebhookConfig, retryCount: number, now: Date): Date {
  const seconds = Math.min(config.retryDelayMaxSeconds, config.retryDelaySeconds * 0.75 * 2 ** Math.min(16, retryCount + 1));
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * One try at delivering one event, run by the queue's worker. The event is claimed first with a
 * lease (an atomic update, no lock held while the request runs), so two processes never send one
 * event at the same time; a process killed mid-send leaves a lease that runs out, and the queue's
 * retry of its job sends it again. The try is logged whatever happens. RETRY tells the worker to
 * fail the job so that pg-boss schedules the next try with its back-off.
 */
export async function deliverEvent(em: EntityManager, eventId: string, job: JobTry, deps: DeliveryDeps, now = new Date()): Promise<DeliveryResult> {
  const claimed = await em.execute<{ attempts: number }[]>(
    `update webhook_event set lease_until = now() + make_interval(secs => ?), attempts = attempts + 1
      where id = ? and status = 'PENDING' and (lease_until is null or lease_until < now()) returning attempts`,
    [deliveryLeaseSeconds(deps.webhooks), eventId],
  );
  const [claim] = claimed;
  if (claim === undefined) {
    // Leased by a try still running (or by a process that died: the lease runs out): try again later.
    const current = await em.findOne(WebhookEvent, eventId);
    return current?.status === 'PENDING' ? 'RETRY' : 'NOT_DUE';
  }
  const attempt = claim.attempts;
  const event = await em.findOneOrFail(WebhookEvent, eventId);
  const endpoint = await em.findOne(WebhookEndpoint, { companyId: event.companyId });
  if (!endpoint) {
    await finish(em, eventId, 'NO_ENDPOINT');
    return 'NO_ENDPOINT';
  }

  const body = JSON.stringify(event.payload);
  const problem = endpointUrlProblem(endpoint.url, deps.webhooks.allowLocalEndpoints);
  const sent = problem
    ? { latencyMs: 0, error: `endpoint ${problem}`, refused: true as const, status: undefined }
    : await deps.sender.post(endpoint.url, { ...signedHeaders(signingSecrets(endpoint, now), event.id, now, body) }, body);
  const delivered = sent.status !== undefined && sent.status >= 200 && sent.status < 300;
  const lastTry = job.retryCount >= job.retryLimit;
  const outcome: DeliveryOutcome = delivered ? 'DELIVERED' : sent.refused ? 'REFUSED' : 'FAILED';
  const result: DeliveryResult = delivered ? 'DELIVERED' : lastTry ? 'GAVE_UP' : 'RETRY';

  await em.fork().transactional(async (tx) => {
    tx.create(WebhookDelivery, {
      eventId,
      attempt,
      url: endpoint.url,
      outcome,
      responseCode: sent.status ?? null,
      latencyMs: sent.latencyMs,
      error: sent.error ?? (delivered ? null : `answered ${sent.status}`),
      nextRetryAt: result === 'RETRY' ? expectedRetryAt(deps.webhooks, job.retryCount, new Date()) : null,
    });
    await tx.flush();
    await finish(tx, eventId, result === 'DELIVERED' ? 'DELIVERED' : result === 'GAVE_UP' ? 'FAILED' : 'PENDING');
  });
  const log = { eventId, type: event.type, attempt, status: sent.status, latencyMs: sent.latencyMs, error: sent.error };
  if (delivered) deps.logger.debug(log, 'webhook delivered');
  else deps.logger.warn({ ...log, result }, 'webhook delivery failed');
  return result;
}

/** Ends a try: the event's status and the lease given back (so a retry or replay may claim it). */
async function finish(em: EntityManager, eventId: string, status: WebhookEvent['status']): Promise<void> {
  await em.execute(
    `update webhook_event set status = ?, lease_until = null, delivered_at = case when ? = 'DELIVERED' then now() else delivered_at end where id = ?`,
    [status, status, eventId],
  );
}
