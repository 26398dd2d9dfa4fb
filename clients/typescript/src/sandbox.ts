import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';
import type { OperationResult } from './operation-result';

type Schemas = components['schemas'];

const CLOCK = '/api/external/v1/sandbox/clock';

/**
 * The sandbox helpers (the "Sandbox" operations), for a partner's tests against a sandbox server:
 * decide a payment as its customer would, answer a refund as its provider would, move an
 * assistance case or a claim as the desks would, move your
 * company's test clock, send yourself any webhook event. Each call answers openapi-fetch's
 * `{ data, error, response }`; on a server without sandbox payments each is a 404.
 *
 * ```ts
 * const sandbox = sandboxCalls(client.api);
 * await sandbox.decidePayment(paymentRef, 'CAPTURED');
 * await sandbox.setClock('2030-10-15');
 * ```
 */
export function sandboxCalls(api: Client<paths>) {
  return {
    /** The customer pays (`CAPTURED`), is declined, lacks funds, cancels or walks away; answers the payment status. */
    decidePayment: (
      paymentRef: string,
      outcome: Schemas['SandboxPaymentOutcome'],
    ): Promise<OperationResult<'setSandboxPaymentOutcome'>> =>
      api.POST('/api/external/v1/sandbox/payments/{paymentRef}/outcome', {
        params: { path: { paymentRef } },
        body: { outcome },
      }),
    /** The provider's answer to a `PENDING` or `MANUAL` refund; answers the refund. */
    answerRefund: (
      refundRef: string,
      outcome: Schemas['SandboxRefundOutcomeRequest']['outcome'],
    ): Promise<OperationResult<'setSandboxRefundOutcome'>> =>
      api.POST('/api/external/v1/sandbox/refunds/{refundRef}/outcome', {
        params: { path: { refundRef } },
        body: { outcome },
      }),
    /** Every business-date rule of your requests reads `today` (YYYY-MM-DD) until `resetClock`. */
    setClock: (today: string): Promise<OperationResult<'setSandboxClock'>> => api.PUT(CLOCK, { body: { today } }),
    readClock: (): Promise<OperationResult<'getSandboxClock'>> => api.GET(CLOCK),
    resetClock: (): Promise<OperationResult<'deleteSandboxClock'>> => api.DELETE(CLOCK),
    /** The assistance desk's next move on a case (`UNDER_REVIEW`, `AUTHORISED`, `DECLINED`, `COMPLETED`, `CLOSED`); answers the case. */
    decideCase: (
      caseRef: string,
      body: Schemas['SandboxCaseDecisionRequest'],
    ): Promise<OperationResult<'setSandboxAssistanceCaseDecision'>> =>
      api.POST('/api/external/v1/sandbox/assistance-cases/{caseRef}/decision', { params: { path: { caseRef } }, body }),
    /** The claims desk's decision on a claim (`UNDER_ASSESSMENT` to `PAID`, with the real `claim.*` webhooks); answers the claim. */
    decideClaim: (
      claimRef: string,
      body: Schemas['SandboxClaimDecisionRequest'],
    ): Promise<OperationResult<'setSandboxClaimDecision'>> =>
      api.POST('/api/external/v1/sandbox/claims/{claimRef}/decision', { params: { path: { claimRef } }, body }),
    /** A signed event of `type` marked `sandbox: true` to your endpoints subscribed to it, about `orderRef` when given; answers its eventId. */
    sendEvent: (type: Schemas['WebhookEventType'], orderRef?: string): Promise<OperationResult<'sendSandboxEvent'>> =>
      api.POST('/api/external/v1/sandbox/events', { body: orderRef === undefined ? { type } : { type, orderRef } }),
  };
}

export type SandboxCalls = ReturnType<typeof sandboxCalls>;
