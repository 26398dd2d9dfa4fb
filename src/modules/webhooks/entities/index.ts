import { WebhookEndpoint } from './webhook-endpoint';
import { WebhookEvent } from './webhook-event';
import { WebhookDelivery } from './webhook-delivery';
import { WebhookDeliveryTry } from './webhook-delivery-try';

/**
 * The ORM entities this module owns, listed apart from its use cases so that the service's list
 * (src/database.ts) loads only the tables, not the module.
 */
export const WEBHOOK_ENTITIES = [WebhookEndpoint, WebhookEvent, WebhookDelivery, WebhookDeliveryTry];
