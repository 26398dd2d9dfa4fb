export {
  createPartnerClient,
  TokenRequestError,
  type AssistanceCaseCalls,
  type AssistanceCaseResult,
  type CancellationPreviewResult,
  type CancelResult,
  type ClaimCalls,
  type ExtensionPreviewResult,
  type ExtensionResult,
  type GroupExtensionPreviewResult,
  type GroupExtensionResult,
  type CommissionCalls,
  type EventCalls,
  type GetOrderGroupResult,
  type GetOrderResult,
  type OrderBookQuery,
  type OrderPageResult,
  type OrdersCsvResult,
  type PartnerApi,
  type PartnerClient,
  type PartnerClientOptions,
  type PayGroupResult,
  type PaymentStatusResult,
  type PayResult,
  type PromoCalls,
  type RefundCalls,
  type SaveCertificateResult,
  type Schemas,
  type UploadResult,
} from './client';
export type {
  AssistanceCaseQuery,
  ClaimPageResult,
  ClaimQuery,
  ClaimsCsvResult,
  EventQuery,
  RefundPageResult,
  RefundQuery,
  RefundsCsvResult,
} from './after-sale';
export type { CsvExportResult, OperationError, OperationResult } from './operation-result';
export { isOrderGroup, type CreatedResult } from './order-creation';
export { ListPageError } from './pages';
export { DEFAULT_RETRY, type RetryOptions } from './retry-policy';
export { webhookCalls, type WebhookCalls } from './webhooks';
export { verifyWebhook, WebhookVerificationError } from './webhook-signature';
export { WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookEventOf } from './generated/webhook-events';
export { sandboxCalls, type SandboxCalls } from './sandbox';
