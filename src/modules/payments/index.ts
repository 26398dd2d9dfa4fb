import type { PaymentDeps } from './payment-deps';

/**
 * The payments module's face: taking money (pay, checkout, settlement, the watch, providers).
 * Only what the composition, the CLI and other modules use.
 */
export { paymentHandlers, paymentPolicies } from './handlers';
export { createGateways, type Gateways } from './providers/gateways';
export { sandboxCheckoutRouter } from './providers/sandbox/checkout-routes';
export { esewaCheckoutRouter } from './providers/esewa/esewa-checkout-routes';
export { documentAllowingHttpReturnUrl } from './return-url-contract';
export { startPaymentReconcileJob, type PaymentReconcileJob } from './reconcile-job';
export { watchDueAttempts, watchedAttemptCounts } from './payment-watch';
export { paymentOverview, paymentsOwingRefunds, type PaymentOverview } from './payment-overview';
export { recordCashPayment } from './cash-settlement';
export { latestPaymentFacts } from './sandbox-outcome';
export { cancellationPayments } from './cancellation-port';
export { refundTopUp } from './top-up-refund';
export { assertNoOpenAttempts, withOpenAttemptsClosed } from './open-attempts';
export { statusLookupCache, type PaymentDeps } from './payment-deps';
export { refundWrites } from './refund-writes';
export { backfillAttemptProviders } from './attempt-provider-backfill';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** Payment settings, the gateway adapters, logger and metrics every payment use case needs. */
    payments: PaymentDeps;
  }
}
