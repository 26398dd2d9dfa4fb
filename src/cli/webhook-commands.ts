import type { Command } from 'commander';
import { loadConfig } from '../config';
import type { WebhookEventStatus } from '../modules/webhooks/entities/webhook-event';
import { listDeliveries, removeEndpoint, replayEvents, rotateSecret, sendTestEvent, setEndpoint } from '../modules/webhooks';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

const EVENT_STATUSES: readonly WebhookEventStatus[] = ['PENDING', 'DELIVERED', 'FAILED', 'NO_ENDPOINT'];

function eventStatus(value: string | undefined): WebhookEventStatus | undefined {
  if (value === undefined) return undefined;
  const found = EVENT_STATUSES.find((status) => status === value);
  if (!found) throw new Error(`--status must be one of ${EVENT_STATUSES.join(', ')}`);
  return found;
}

export function registerWebhookCommands(program: Command): void {
  const webhook = program.command('webhook').description('partner webhook endpoints, secrets and deliveries');

  registerEndpointCommands(webhook);
  registerDeliveryCommands(webhook);
}

/** The endpoint and its signing secret. */
function registerEndpointCommands(webhook: Command): void {
  operatorCommand(webhook, 'set <companyId> <url>', 'set the company\'s endpoint (HTTPS, public address outside sandbox); a new endpoint gets a secret, shown once')
    .action(async (companyId: string, url: string, options: CliOptions) => {
      const config = loadConfig();
      const endpoint = await withDatabase((em) => setEndpoint(em, companyId, url, config.webhooks));
      output(options, endpoint, [
        `webhook endpoint of ${endpoint.companyId}: ${endpoint.url}`,
        ...(endpoint.secret ? [`secret (shown once, give it to the partner): ${endpoint.secret}`] : ['secret unchanged']),
      ]);
    });

  operatorCommand(webhook, 'remove <companyId>', 'remove the company\'s endpoint: its events are kept but no longer sent')
    .action(async (companyId: string, options: CliOptions) => {
      const result = await withDatabase((em) => removeEndpoint(em, companyId));
      output(options, result, result.removed ? `removed the webhook endpoint of ${companyId}` : `${companyId} had no webhook endpoint`);
    });

  operatorCommand(webhook, 'rotate-secret <companyId>', 'issue a new secret (shown once); the old one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_HOURS')
    .action(async (companyId: string, options: CliOptions) => {
      const config = loadConfig();
      const endpoint = await withDatabase((em) => rotateSecret(em, companyId, config.webhooks.secretOverlapHours));
      output(options, endpoint, [`new secret (shown once): ${endpoint.secret ?? ''}`, `the old secret signs too until ${endpoint.previousSecretUntil ?? 'now'}`]);
    });

}

/** What was sent, and sending again. */
function registerDeliveryCommands(webhook: Command): void {
  operatorCommand(webhook, 'deliveries <companyId>', 'the company\'s latest events with every delivery try (status, response code, latency, next retry)', (command) => command
      .option('--status <status>', EVENT_STATUSES.join(', '))
      .option('--limit <n>', 'how many events', '20'))
    .action(async (companyId: string, options: CliOptions & { status?: string; limit: string }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit must be an integer from 1 to 1000');
      const status = eventStatus(options.status);
      const events = await withDatabase((em) => listDeliveries(em, companyId, { limit, status }));
      output(options, events, events.flatMap((event) => [
        `${event.createdAt} ${event.eventId} ${event.type} ${event.status}`,
        ...event.attempts.map((a) => `  #${a.attempt} ${a.at} ${a.outcome} ${a.responseCode ?? '-'} ${a.latencyMs} ms${a.error ? ` ${a.error}` : ''}${a.nextRetryAt ? ` next try ~${a.nextRetryAt}` : ''}`),
      ]));
    });

  operatorCommand(webhook, 'replay', 'send events again (same id and body): one by --event, or every one that gave up (FAILED) since --failed-since', (command) => command
      .option('--event <eventId>', 'one event')
      .option('--failed-since <time>', 'ISO-8601 time')
      .option('--company <companyId>', 'with --failed-since: only this company'))
    .action(async (options: CliOptions & { event?: string; failedSince?: string; company?: string }) => {
      if (!options.event === !options.failedSince) throw new Error('give exactly one of --event or --failed-since');
      let selection: Parameters<typeof replayEvents>[1];
      if (options.event) selection = { eventId: options.event };
      else {
        const since = new Date(options.failedSince ?? '');
        if (Number.isNaN(since.getTime())) throw new Error('--failed-since must be an ISO-8601 time');
        selection = { failedSince: since, companyId: options.company };
      }
      const result = await withDatabase((em) => replayEvents(em, selection));
      output(options, result, [`queued ${result.replayed.length} event(s) again`, ...result.replayed]);
    });

  operatorCommand(webhook, 'test <companyId>', 'send a webhook.test event to the company\'s endpoint')
    .action(async (companyId: string, options: CliOptions) => {
      const result = await withDatabase((em) => sendTestEvent(em, companyId));
      output(options, result, `queued test event ${result.eventId}; see it with: ops webhook deliveries ${companyId}`);
    });
}
