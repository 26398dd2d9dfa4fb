// Derived from the webhooks of generated/openapi.json by npm run generate: do not edit.
import type { components } from './api';

type Schemas = components['schemas'];

/** Every event the service sends to your endpoints; switch on `type` to read its `data`. */
export type WebhookEvent =
  | Schemas['OrderPaidEvent']
  | Schemas['PaymentFailedEvent']
  | Schemas['PaymentExpiredEvent']
  | Schemas['PaymentCancelledEvent']
  | Schemas['PaymentRefundPendingEvent']
  | Schemas['PaymentPartiallyReversedEvent']
  | Schemas['OrderCancelledEvent']
  | Schemas['OrderAmendedEvent']
  | Schemas['OrderExtendedEvent']
  | Schemas['RefundSucceededEvent']
  | Schemas['RefundFailedEvent']
  | Schemas['AssistanceCaseOpenedEvent']
  | Schemas['AssistanceCaseUpdatedEvent']
  | Schemas['ClaimSubmittedEvent']
  | Schemas['ClaimInformationRequestedEvent']
  | Schemas['ClaimDecidedEvent']
  | Schemas['ClaimPaidEvent']
  | Schemas['ClaimWithdrawnEvent']
  | Schemas['CommissionPeriodClosedEvent']
  | Schemas['DisruptionDeclaredEvent']
  | Schemas['DisruptionEndedEvent']
  | Schemas['WebhookTestEvent'];

/** The event of one type: `WebhookEventOf<'order.paid'>`. */
export type WebhookEventOf<Type extends WebhookEvent['type']> = Extract<WebhookEvent, { type: Type }>;

/** Every event type, as the contract lists them. */
export const WEBHOOK_EVENT_TYPES: ReadonlyArray<WebhookEvent['type']> = [
  'order.paid',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.refund_pending',
  'payment.partially_reversed',
  'order.cancelled',
  'order.amended',
  'order.extended',
  'refund.succeeded',
  'refund.failed',
  'assistance_case.opened',
  'assistance_case.updated',
  'claim.submitted',
  'claim.information_requested',
  'claim.decided',
  'claim.paid',
  'claim.withdrawn',
  'commission.period_closed',
  'disruption.declared',
  'disruption.ended',
  'webhook.test',
];
