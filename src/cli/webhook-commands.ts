import type { Command } from 'commander';
import { loadConfig } from '../config';
import type { WebhookDeliveryStatus } from '../modules/webhooks/entities/webhook-delivery';
import {
  listCompanyEndpoints,
  listDeliveries,
  removeEndpoint,
  replayEvents,
  rotateSecret,
  sendTestEvent,
  setEndpoint,
} from '../modules/webhooks';
import { operatorCommand, output, withDatabase, type CliOptions } from './context';

const DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED'];

function deliveryStatus(value: string | undefined): WebhookDeliveryStatus | undefined {
  if (value === undefined) return undefined;
  const found = DELIVERY_STATUSES.find((status) => status === value);
  if (!found) throw new Error(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  return found;
}

/** Partners manage their endpoints through the API too (up to 5 each); these commands work on the same records. */
export function registerWebhookCommands(program: Command): void {
  const webhook = program
    .command('webhook')
    .description(
      'partner webhook endpoints, secrets and deliveries (the same records partners manage through /webhook-endpoints)',
    );

  registerEndpointCommands(webhook);
  registerDeliveryCommands(webhook);
}

const endpointOption = (command: Command) =>
  command.option('--endpoint <endpointId>', 'which endpoint, when the company has several');

/** The endpoints and their signing secrets. */
function registerEndpointCommands(webhook: Command): void {
  operatorCommand(webhook, 'list <companyId>', "the company's endpoints (id, URL, event types, enabled)").action(
    async (companyId: string, options: CliOptions) => {
      const endpoints = await withDatabase((em) => listCompanyEndpoints(em, companyId));
      output(
        options,
        endpoints,
        endpoints.map((e) => `${e.endpointId} ${e.enabled ? 'enabled' : 'disabled'} ${e.url} [${e.events.join(', ')}]`),
      );
    },
  );

  operatorCommand(
    webhook,
    'set <companyId> <url>',
    'without an endpoint: create one for every event (HTTPS, public address outside sandbox), its secret shown once; else move the endpoint to the URL, keeping its secret',
    (command) =>
      endpointOption(command).option('--new', 'add another endpoint (at most 5 per company) rather than move one'),
  ).action(async (companyId: string, url: string, options: CliOptions & { endpoint?: string; new?: boolean }) => {
    const config = loadConfig();
    const endpoint = await withDatabase((em) =>
      setEndpoint(em, companyId, url, config.webhooks, { endpointId: options.endpoint, add: options.new }),
    );
    output(options, endpoint, [
      `webhook endpoint ${endpoint.endpointId} of ${endpoint.companyId}: ${endpoint.url}`,
      ...(endpoint.secret ? [`secret (shown once, give it to the partner): ${endpoint.secret}`] : ['secret unchanged']),
    ]);
  });

  operatorCommand(
    webhook,
    'remove <companyId>',
    "remove the company's endpoint with its delivery log; its events are no longer sent there",
    endpointOption,
  ).action(async (companyId: string, options: CliOptions & { endpoint?: string }) => {
    const result = await withDatabase((em) => removeEndpoint(em, companyId, options.endpoint));
    output(
      options,
      result,
      result.removed
        ? `removed the webhook endpoint ${result.endpointId ?? ''} of ${companyId}`
        : `${companyId} had no webhook endpoint`,
    );
  });

  operatorCommand(
    webhook,
    'rotate-secret <companyId>',
    'issue a new secret (shown once); the old one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_HOURS',
    endpointOption,
  ).action(async (companyId: string, options: CliOptions & { endpoint?: string }) => {
    const config = loadConfig();
    const endpoint = await withDatabase((em) =>
      rotateSecret(em, companyId, config.webhooks.secretOverlapHours, options.endpoint),
    );
    output(options, endpoint, [
      `new secret (shown once): ${endpoint.secret ?? ''}`,
      `the old secret signs too until ${endpoint.previousSecretUntil ?? 'now'}`,
    ]);
  });
}

/** What was sent, and sending again. */
function registerDeliveryCommands(webhook: Command): void {
  operatorCommand(
    webhook,
    'deliveries <companyId>',
    "the company's latest deliveries with every try (status, response code, latency, next retry)",
    (command) =>
      endpointOption(command)
        .option('--status <status>', DELIVERY_STATUSES.join(', '))
        .option('--limit <n>', 'how many deliveries (at most 100)', '20'),
  ).action(async (companyId: string, options: CliOptions & { status?: string; limit: string; endpoint?: string }) => {
    const limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new Error('--limit must be an integer from 1 to 100');
    const status = deliveryStatus(options.status);
    const deliveries = await withDatabase((em) =>
      listDeliveries(em, companyId, { limit, status, endpointId: options.endpoint }),
    );
    output(
      options,
      deliveries,
      deliveries.flatMap((delivery) => [
        `${delivery.createdAt} ${delivery.eventId} ${delivery.type} ${delivery.status} -> endpoint ${delivery.endpointId} (delivery ${delivery.deliveryId})`,
        ...delivery.attempts.map(
          (a) =>
            `  #${a.attempt} ${a.at} ${a.outcome} ${a.responseCode ?? '-'} ${a.latencyMs} ms${a.error ? ` ${a.error}` : ''}${a.nextRetryAt ? ` next try ~${a.nextRetryAt}` : ''}`,
        ),
      ]),
    );
  });

  operatorCommand(
    webhook,
    'replay',
    'send again (same id and body): one event to its endpoints by --event, or every delivery that gave up (FAILED) since --failed-since',
    (command) =>
      command
        .option('--event <eventId>', 'one event')
        .option('--failed-since <time>', 'ISO-8601 time')
        .option('--company <companyId>', 'with --failed-since: only this company'),
  ).action(async (options: CliOptions & { event?: string; failedSince?: string; company?: string }) => {
    if (!options.event === !options.failedSince) throw new Error('give exactly one of --event or --failed-since');
    let selection: Parameters<typeof replayEvents>[1];
    if (options.event) selection = { eventId: options.event };
    else {
      const since = new Date(options.failedSince ?? '');
      if (Number.isNaN(since.getTime())) throw new Error('--failed-since must be an ISO-8601 time');
      selection = { failedSince: since, companyId: options.company };
    }
    const result = await withDatabase((em) => replayEvents(em, selection));
    output(options, result, [`queued ${result.replayed.length} delivery(ies) again`, ...result.replayed]);
  });

  operatorCommand(
    webhook,
    'test <companyId>',
    "send a webhook.test event to the company's endpoint",
    endpointOption,
  ).action(async (companyId: string, options: CliOptions & { endpoint?: string }) => {
    const result = await withDatabase((em) => sendTestEvent(em, companyId, options.endpoint));
    output(
      options,
      result,
      `queued test event ${result.eventId} (delivery ${result.deliveryId}); see it with: ops webhook deliveries ${companyId}`,
    );
  });
}
