import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid, notFound } from '../../kernel/errors';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import type { Principal } from '../../kernel/http/request-scope';
import { createdRangeErrors } from '../../kernel/http/time-range';
import type { QueryOf, Schemas } from '../../kernel/http/wire';
import { WebhookEvent } from './entities/webhook-event';

/**
 * Partners' reads of their events (decision record 0077): the outbox rows
 * of the caller's company, newest first, with the payload as delivered, so a partner whose
 * endpoint was down can catch up without the operator.
 */
type EventFilter = QueryOf<'listEvents'>;

function whereOf(principal: Principal, filter: EventFilter): FilterQuery<WebhookEvent> {
  const errors = createdRangeErrors(filter);
  if (Object.keys(errors).length > 0) throw invalid('Validation failed', errors);
  const created = {
    ...(filter.createdFrom ? { $gte: new Date(filter.createdFrom) } : {}),
    ...(filter.createdTo ? { $lt: new Date(filter.createdTo) } : {}),
  };
  return {
    companyId: principal.companyId,
    ...(filter.type ? { type: { $in: filter.type } } : {}),
    ...(filter.sandbox !== undefined ? { sandbox: filter.sandbox } : {}),
    ...(Object.keys(created).length > 0 ? { createdAt: created } : {}),
  };
}

export async function listEventLog(
  em: EntityManager,
  principal: Principal,
  query: EventFilter,
): Promise<{ events: WebhookEvent[]; request: PageRequest; total: number }> {
  const request = pageRequest(query.page, query.size);
  // The id breaks ties, so pages never overlap.
  const direction = query.sortDir ?? 'desc';
  const [events, total] = await em.findAndCount(WebhookEvent, whereOf(principal, query), {
    orderBy: { createdAt: direction, id: direction },
    limit: request.size,
    offset: offsetOf(request),
  });
  return { events, request, total };
}

/** One event of the caller's company; another company's answers 404, as an unknown one does. */
export async function eventOfCompany(em: EntityManager, principal: Principal, eventId: string): Promise<WebhookEvent> {
  const event = await em.findOne(WebhookEvent, { id: eventId, companyId: principal.companyId });
  if (!event) throw notFound(`Event ${eventId} not found`);
  return event;
}

export function eventWire(event: WebhookEvent): Schemas['EventRecord'] {
  return {
    eventId: event.id,
    type: event.type as Schemas['EventRecord']['type'],
    createdAt: event.createdAt.toISOString(),
    // The row holds the body as signed and delivered, built by recordWebhookEvent for its type; the
    // contract types it as that type's event (the webhook event union, told apart by `type`).
    payload: event.payload as Schemas['EventRecord']['payload'],
  };
}
