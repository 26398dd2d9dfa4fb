export { createPartnerClient, OrderBookError, TokenRequestError, type OrderBookQuery, type OrderPageResult, type OrdersCsvResult, type PartnerApi, type PartnerClient, type PartnerClientOptions, type AssistanceCaseResult, type CancellationPreviewResult, type CancelResult, type PayResult, type SaveCertificateResult, type Schemas, type UploadResult } from './client';
export { DEFAULT_RETRY, type RetryOptions } from './retry-policy';
export { webhookCalls, type WebhookCalls } from './webhooks';
export { sandboxCalls, type SandboxCalls } from './sandbox';
