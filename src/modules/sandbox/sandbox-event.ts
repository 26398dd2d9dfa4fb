import type { EntityManager } from '@mikro-orm/postgresql';
import type { Document } from 'openapi-backend';
import type { Principal } from '../../kernel/http/request-scope';
import { resolveOrder } from '../orders';
import { recordWebhookEvent, type WebhookEventType } from '../webhooks';
import { documentedEventData, withOrderFacts } from './sample-event';

/**
 * POST /sandbox/events: one event of any type, for the caller's own endpoints, through the outbox
 * like every event (the relay fans it out to the endpoints subscribed to its type; signing,
 * retries and the delivery log are the same). Built from an order the caller placed when named.
 */
export async function sendSandboxEvent(
  em: EntityManager,
  principal: Principal,
  document: Document,
  request: { type: WebhookEventType; orderRef?: string },
): Promise<string> {
  return em.fork().transactional(async (tx) => {
    let data = documentedEventData(document, request.type);
    if (request.orderRef !== undefined) {
      const { order } = await resolveOrder(tx, principal, request.orderRef, {
        intent: 'ACT',
        populate: ['group'],
        strangerSeesNothing: true,
      });
      data = withOrderFacts(data, order);
    }
    return recordWebhookEvent(tx, principal.companyId, request.type, data).id;
  });
}
