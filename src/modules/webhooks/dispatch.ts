import type { EntityManager } from '@mikro-orm/postgresql';
import type { Job } from 'pg-boss';
import type { WebhookConfig } from './settings';
import type { Logger } from '../../kernel/logging/logger';
import type { JobQueue } from '../../kernel/jobs/job-queue';
import { deliverOnce, deliveryLeaseSeconds } from './delivery';
import { relayOutbox, WEBHOOK_QUEUE, type DeliveryJob } from './relay';
import { createWebhookSender } from './sender';
import { present } from '../../kernel/narrow';

export interface WebhookDispatch {
  /** Fans the outbox out to deliveries and hands them to the queue now (the timer does this every RELAY_MS); answers how many deliveries. */
  relayOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** How often each process looks for committed events to hand to the queue. */
const RELAY_MS = 250;

/**
 * Webhook delivery in this process: the relay from the outbox to the queue, and a pg-boss worker
 * that sends. A failed try fails its job, and pg-boss retries it with exponential back-off
 * (WEBHOOK_RETRY_DELAY_SECONDS doubling up to WEBHOOK_RETRY_DELAY_MAX_SECONDS, WEBHOOK_RETRY_LIMIT
 * times: about a day with the defaults). A job whose process died mid-send expires after the
 * request timeout plus a margin and is retried elsewhere.
 */
export async function startWebhookDispatch(
  queue: JobQueue,
  newEm: () => EntityManager,
  config: WebhookConfig,
  logger: Logger,
  // false: no delivery worker and no relay timer; relayOnce still queues (StartOptions.backgroundJobs).
  { deliver = true }: { deliver?: boolean } = {},
): Promise<WebhookDispatch> {
  const log = logger.child({ component: 'webhooks' });
  const sender = createWebhookSender({ timeoutMs: config.timeoutMs, allowLocal: config.allowLocalEndpoints });
  const deps = { webhooks: config, sender, logger: log };
  // Each job carries its retry policy (pg-boss copies a queue's options only when the queue is
  // first created, by whichever process came first). A job expires just after its lease, so the
  // retry of a job whose process died finds the event free to claim.
  const jobOptions = {
    retryLimit: config.retryLimit,
    retryDelay: config.retryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: config.retryDelayMaxSeconds,
    expireInSeconds: deliveryLeaseSeconds(config) + 1,
  };
  await queue.boss.createQueue(WEBHOOK_QUEUE, { ...jobOptions, notify: true });
  // A queue made before it woke its workers by NOTIFY (createQueue leaves an existing queue as it is).
  await queue.boss.updateQueue(WEBHOOK_QUEUE, { notify: true });
  const send = async (job: Job<DeliveryJob>) => {
    const { deliveryId } = job.data;
    if (deliveryId === undefined) return;
    const result = await deliverOnce(
      newEm(),
      deliveryId,
      { jobId: job.id, retryCount: job.retryCount, retryLimit: config.retryLimit },
      deps,
    );
    // Failing the job is what makes pg-boss schedule the next try.
    if (result === 'RETRY') throw new Error(`webhook delivery ${deliveryId} not delivered; retrying`);
    // NO_SLOT ends here too: the claim has put the job back in the queue untried.
  };
  if (deliver) await startDeliveryWorkers(queue, config, send);

  let relaying: Promise<number> | undefined;
  const relayOnce = () => {
    relaying ??= relayOutbox(newEm(), queue.boss, jobOptions).finally(() => {
      relaying = undefined;
    });
    return relaying;
  };
  const timer = deliver
    ? setInterval(() => {
        relayOnce().catch((error: unknown) => log.error({ err: error }, 'webhook relay failed'));
      }, RELAY_MS)
    : undefined;
  timer?.unref();

  return {
    relayOnce,
    async stop() {
      clearInterval(timer);
      await relaying?.catch(() => undefined);
      // Deliveries in hand finish before their connections close.
      await queue.boss.offWork(WEBHOOK_QUEUE, { wait: true });
      sender.close();
    },
  };
}

/**
 * WEBHOOK_CONCURRENCY workers on the delivery queue. Each polling every 0.5 s, they made 100 empty
 * fetches a second at the default 50 when nothing was sent (a tenth of the server's CPU in the
 * booking-flow bench). A relayed job wakes them by NOTIFY, and a worker that has just sent fetches
 * again at once (it wakes itself), so a burst drains without waiting; only a worker that found
 * nothing waits, for the slow poll that finds retries coming due (never longer than the first
 * retry's delay) and covers a lost notification. Each worker is registered on its own to know its id.
 * A worker takes no job of a company that already has WEBHOOK_CONCURRENCY_PER_COMPANY in flight
 * (pg-boss counts a group's active jobs in the database, so across processes): one company's
 * hanging endpoint holds that many workers, never all of them. That count is read from the
 * snapshot each fetch sees, so workers woken together by a burst may take more; the claim's slot
 * (delivery-claim.ts) turns those back before any request, and they return to the queue untried.
 */
async function startDeliveryWorkers(
  queue: JobQueue,
  config: WebhookConfig,
  send: (job: Job<DeliveryJob>) => Promise<void>,
): Promise<void> {
  const backstop = Math.min(10, config.retryDelaySeconds);
  const polling = {
    batchSize: 1,
    notifyPollingIntervalSeconds: backstop,
    pollingIntervalSeconds: Math.min(2, backstop),
    groupConcurrency: config.concurrencyPerCompany,
  };
  for (let i = 0; i < config.concurrency; i += 1) {
    const worker: { id?: string } = {};
    worker.id = await queue.boss.work<DeliveryJob>(WEBHOOK_QUEUE, polling, async ([job]) => {
      try {
        await send(present(job, 'the job of a batch of one'));
      } finally {
        if (worker.id) queue.boss.notifyWorker(worker.id);
      }
    });
  }
}
