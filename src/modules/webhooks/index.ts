export * from './dispatch';
export * from './endpoints';
export * from './entities/webhook-delivery';
export * from './entities/webhook-endpoint';
export * from './entities/webhook-event';
export * from './events';
export type { WebhookConfig } from './settings';
