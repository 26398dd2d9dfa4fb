/** The webhooks module's face: the endpoints, the delivery log, the events other modules record and the dispatch; only what the composition, the CLI and other modules use. */
export { type WebhookDispatch, startWebhookDispatch } from './dispatch';
export {
  listCompanyEndpoints,
  listDeliveries,
  removeEndpoint,
  replayEvents,
  rotateSecret,
  sendTestEvent,
  setEndpoint,
} from './endpoints';
export {
  type RefundEventFacts,
  type WebhookEventType,
  newWebhookEvent,
  endedPaymentEventType,
  recordOrderAmendedEvent,
  recordOrderExtendedEvent,
  recordOrderCancelledEvent,
  recordPaymentEvents,
  recordRefundEvent,
  recordWebhookEvent,
  refundData,
} from './events';
export { WEBHOOK_EVENT_COLUMNS, webhookEventsInsert, webhookEventsValue } from './outbox-statement';
export { webhookHandlers, webhookPolicies } from './handlers';
