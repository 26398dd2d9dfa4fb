import type { EntityManager } from '@mikro-orm/postgresql';
import type { WebhookConfig } from './settings';
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

export type DeliveryResult = 'DELIVERED' | 'RETRY' | 'GAVE_UP' | 'NOT_DUE';

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
  const seconds = Math.min(config.retryDelayMaxSeconds, config.retryDelaySeconds * 0.75 * 2 ** Math.min(16, retryCount + 1));
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * One try at one delivery (one event to one endpoint), run by the queue's worker. The delivery is
 * claimed first with a lease (an atomic update, no lock held while the request runs), so two
 * processes never send it at the same time; a process killed mid-send leaves a lease that runs
 * out, and the queue's retry of its job sends it again. The try is logged whatever happens. RETRY
 * tells the worker to fail the job so that pg-boss schedules the next try with its back-off. A
 * disabled endpoint, or one whose address breaks the rules, ends the delivery FAILED at once.
 */
export async function deliverOnce(em: EntityManager, deliveryId: string, job: JobTry, deps: DeliveryDeps, now = new Date()): Promise<DeliveryResult> {
  const [claim] = await em.execute<{ attempts: number; event_id: string; endpoint_id: string }[]>(
    `update webhook_delivery set lease_until = now() + make_interval(secs => ?), attempts = attempts + 1
      where id = ? and status = 'PENDING' and (job_id is null or job_id = ?) and (lease_until is null or lease_until < now()) returning attempts, event_id, endpoint_id`,
    [deliveryLeaseSeconds(deps.webhooks), deliveryId, job.jobId],
  );
  if (claim === undefined) {
    const [current] = await em.execute<{ status: string; job_id: string | null }[]>(`select status, job_id from webhook_delivery where id = ?`, [deliveryId]);
    // A job a retry by hand replaced ends here without sending: the delivery's own job goes on.
    if (current?.job_id && current.job_id !== job.jobId) return 'NOT_DUE';
    // Leased by a try still running (or by a process that died: the lease runs out): try again later.
    return current?.status === 'PENDING' ? 'RETRY' : 'NOT_DUE';
  }
  const event = await em.findOneOrFail(WebhookEvent, claim.event_id);
  const endpoint = await em.findOneOrFail(WebhookEndpoint, claim.endpoint_id);

  const body = JSON.stringify(event.payload);
  const problem = endpoint.enabled ? endpointUrlProblem(endpoint.url, deps.webhooks.allowLocalEndpoints) : 'is disabled';
  const sent: SendResult = problem
    ? { latencyMs: 0, error: `endpoint ${problem}`, refused: true }
    : await deps.sender.post(endpoint.url, { ...signedHeaders(signingSecrets(endpoint, now), event.id, now, body) }, body);
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
    const status: WebhookDeliveryStatus = result === 'DELIVERED' ? 'SUCCEEDED' : result === 'GAVE_UP' ? 'FAILED' : 'PENDING';
    await tx.execute(`update webhook_delivery set status = ?, lease_until = null, next_retry_at = ? where id = ?`, [status, nextRetryAt, deliveryId]);
  });
  const log = { deliveryId, eventId: event.id, endpointId: endpoint.id, type: event.type, attempt: claim.attempts, status: sent.status, latencyMs: sent.latencyMs, error: sent.error };
  if (delivered) deps.logger.debug(log, 'webhook delivered');
  else deps.logger.warn({ ...log, result }, 'webhook delivery failed');
  return result;
}
