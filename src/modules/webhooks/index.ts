import { WebhookEndpoint } from './entities/webhook-endpoint';
import { WebhookEvent } from './entities/webhook-event';
import { WebhookDelivery } from './entities/webhook-delivery';
export * from './dispatch';
export * from './endpoints';
export * from './entities/webhook-delivery';
export * from './entities/webhook-endpoint';
export * from './entities/webhook-event';
export * from './events';
export type { WebhookConfig } from './settings';

/** The ORM entities this module owns (the service's list is their union, in src/database.ts). */
export const WEBHOOK_ENTITIES = [WebhookEndpoint, WebhookEvent, WebhookDelivery];
