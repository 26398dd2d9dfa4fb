import type { EntityManager } from '@mikro-orm/postgresql';
import { offsetOf, pageRequest, type PageRequest } from '../../kernel/http/pagination';
import { WebhookDelivery, type WebhookDeliveryStatus } from './entities/webhook-delivery';
import { WebhookDeliveryTry } from './entities/webhook-delivery-try';
import { WebhookEndpoint } from './entities/webhook-endpoint';
import { WebhookEvent } from './entities/webhook-event';
import { conflict, invalidField, notFound } from '../../kernel/errors';

export interface DeliveryFilter {
  endpointId?: string;
  eventType?: string;
  status?: WebhookDeliveryStatus;
  from?: string;
  to?: string;
  page?: number;
  size?: number;
  sortBy?: 'createdAt' | 'eventType' | 'status';
  sortDir?: 'asc' | 'desc';
}

/** A delivery with its tries, oldest first, and the body it sends: one line of the log. */
export interface DeliveryView {
  delivery: WebhookDelivery;
  tries: WebhookDeliveryTry[];
  payload: Record<string, unknown>;
}

/** Reads the tries and the event bodies of the deliveries given, one query each. */
async function withTries(em: EntityManager, deliveries: WebhookDelivery[]): Promise<DeliveryView[]> {
  if (deliveries.length === 0) return [];
  const tries = await em.find(
    WebhookDeliveryTry,
    { deliveryId: { $in: deliveries.map((d) => d.id) } },
    { orderBy: { attempt: 'asc', at: 'asc' } },
  );
  const events = await em.find(
    WebhookEvent,
    { id: { $in: [...new Set(deliveries.map((d) => d.eventId))] } },
    { fields: ['id', 'payload'] },
  );
  const byDelivery = new Map<string, WebhookDeliveryTry[]>();
  for (const line of tries) byDelivery.set(line.deliveryId, [...(byDelivery.get(line.deliveryId) ?? []), line]);
  const payloadOf = new Map(events.map((event) => [event.id, event.payload]));
  return deliveries.map((delivery) => ({
    delivery,
    tries: byDelivery.get(delivery.id) ?? [],
    payload: payloadOf.get(delivery.eventId) ?? {},
  }));
}

/** A `date-time` the contract accepted that JavaScript cannot place (a leap second, 23:59:60) is a 400, not a 500. */
function instant(text: string | undefined, field: string): Date | undefined {
  if (text === undefined) return undefined;
  const value = new Date(text);
  if (Number.isNaN(value.getTime()))
    throw invalidField(field, 'must be a date-time JavaScript can place (no leap second)');
  return value;
}

/** The company's deliveries, newest first unless asked otherwise (the id breaks ties, so pages never overlap), a page at a time, with their tries. */
export async function listDeliveryLog(
  em: EntityManager,
  companyId: string,
  filter: DeliveryFilter,
): Promise<{ views: DeliveryView[]; request: PageRequest; total: number }> {
  const from = instant(filter.from, 'from');
  const to = instant(filter.to, 'to');
  if (from && to && from > to) throw invalidField('to', 'must not be before from');
  const request = pageRequest(filter.page, filter.size);
  const where = {
    companyId,
    ...(filter.endpointId ? { endpointId: filter.endpointId } : {}),
    ...(filter.eventType ? { eventType: filter.eventType } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(from || to ? { createdAt: { ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) } } : {}),
  };
  const direction = filter.sortDir ?? 'desc';
  const [deliveries, total] = await em.findAndCount(WebhookDelivery, where, {
    orderBy: { [filter.sortBy ?? 'createdAt']: direction, id: direction },
    limit: request.size,
    offset: offsetOf(request),
  });
  return { views: await withTries(em, deliveries), request, total };
}

/** One of the company's deliveries; another company's is as unknown as one that does not exist. */
async function ownDelivery(em: EntityManager, companyId: string, deliveryId: string): Promise<WebhookDelivery> {
  const delivery = await em.findOne(WebhookDelivery, { id: deliveryId, companyId });
  if (!delivery) throw notFound('Webhook delivery not found');
  return delivery;
}

/** Puts deliveries back in the queue's way (the relay hands them over again) with a fresh retry schedule. */
function requeue(delivery: WebhookDelivery): void {
  delivery.status = 'PENDING';
  delivery.enqueuedAt = null;
  delivery.nextRetryAt = null;
}

/**
 * `POST /webhook-deliveries/{deliveryId}/retry`: the delivery is sent again (same event id, same
 * body) with a fresh retry schedule; its tries count on. A disabled endpoint would refuse it
 * without a request, so that is a 409 rather than a retry that cannot succeed.
 */
export async function retryDelivery(em: EntityManager, companyId: string, deliveryId: string): Promise<DeliveryView> {
  const delivery = await em.transactional(async (tx) => {
    const found = await ownDelivery(tx, companyId, deliveryId);
    const endpoint = await tx.findOneOrFail(WebhookEndpoint, found.endpointId);
    if (!endpoint.enabled) throw conflict("The delivery's webhook endpoint is disabled");
    requeue(found);
    return found;
  });
  return deliveryView(em, delivery);
}

export async function deliveryView(em: EntityManager, delivery: WebhookDelivery): Promise<DeliveryView> {
  const [view] = await withTries(em, [delivery]);
  return view ?? { delivery, tries: [], payload: {} };
}

/**
 * `ops webhook replay`: one event sent again to the endpoints it went to (and to any endpoint now
 * subscribed to it: the relay fans it out again), or every delivery that gave up (FAILED) since a
 * time, optionally of one company. Same event ids, same bodies, fresh retry schedules.
 */
export async function replayDeliveries(
  em: EntityManager,
  selection: { eventId: string } | { failedSince: Date; companyId?: string },
): Promise<{ replayed: string[] }> {
  return em.transactional(async (tx) => {
    if ('eventId' in selection) {
      const event = await tx.findOne(WebhookEvent, selection.eventId);
      if (!event) throw notFound(`no webhook event ${selection.eventId}`);
      const deliveries = await tx.find(WebhookDelivery, { eventId: event.id });
      deliveries.forEach(requeue);
      event.enqueuedAt = null;
      event.status = 'PENDING';
      return { replayed: [event.id] };
    }
    const deliveries = await tx.find(
      WebhookDelivery,
      {
        status: 'FAILED',
        createdAt: { $gte: selection.failedSince },
        ...(selection.companyId ? { companyId: selection.companyId } : {}),
      },
      { orderBy: { createdAt: 'asc' } },
    );
    deliveries.forEach(requeue);
    return { replayed: deliveries.map((delivery) => delivery.eventId) };
  });
}

/** The most events one replay re-sends: a partner catching up on more pages through `GET /events` and replays in windows. */
export const MAX_EVENTS_PER_REPLAY = 1000;

/**
 * `POST /webhook-endpoints/{endpointId}/replay`: every event of the company since `since` (of
 * `types`, if given) that the endpoint subscribes to is sent to it again (same event ids, same
 * bodies, fresh retry schedules), delivered before or not; an event it never had a delivery of
 * gets one. Answers how many events go out.
 */
export async function replayToEndpoint(
  em: EntityManager,
  companyId: string,
  endpointId: string,
  request: { since: Date; types?: string[] },
): Promise<number> {
  return em.transactional(async (tx) => {
    const endpoint = await tx.findOne(WebhookEndpoint, { id: endpointId, companyId });
    if (!endpoint) throw notFound('Webhook endpoint not found');
    if (!endpoint.enabled) throw conflict('The webhook endpoint is disabled; enable it before replaying to it');
    const subscribed = endpoint.events.includes('*') ? undefined : endpoint.events;
    const types =
      request.types && subscribed
        ? request.types.filter((type) => subscribed.includes(type))
        : (request.types ?? subscribed);
    const where = { companyId, createdAt: { $gte: request.since }, ...(types ? { type: { $in: types } } : {}) };
    const events = (await tx.find(WebhookEvent, where, { fields: ['id'], limit: MAX_EVENTS_PER_REPLAY + 1 })).map(
      (event) => event.id,
    );
    if (events.length > MAX_EVENTS_PER_REPLAY) {
      throw invalidField(
        'since',
        `more than ${MAX_EVENTS_PER_REPLAY} events match; choose a later since or fewer types`,
      );
    }
    if (events.length === 0) return 0;
    // An event the endpoint never had (it subscribed later, or was down at registration) gets its delivery now.
    await tx.execute(
      `insert into webhook_delivery (event_id, endpoint_id, company_id, event_type, created_at)
       select e.id, ?, e.company_id, e.type, now() from webhook_event e where e.id in (?)
       on conflict (event_id, endpoint_id) do nothing`,
      [endpoint.id, events],
    );
    const deliveries = await tx.find(WebhookDelivery, { endpointId: endpoint.id, eventId: { $in: events } });
    deliveries.forEach(requeue);
    const count = events.length;
    return count;
  });
}
