import type { PaymentDeps } from './payment-deps';
export { backfillAttemptProviders } from './attempt-provider-backfill';
export * from './cancellation-port';
export * from './cash-settlement';
export * from './entities/payment-attempt-order';
export * from './entities/payment-attempt';
export * from './handlers';
export * from './open-attempts';
export * from './operator-cancellation';
export * from './payment-deps';
export * from './payment-overview';
export * from './providers/esewa/esewa-checkout-routes';
export * from './providers/gateway';
export * from './providers/gateways';
export * from './providers/sandbox/checkout-routes';
export * from './providers/sandbox/entities/sandbox-gateway-payment';
export * from './reconcile-job';
export * from './reconciliation';
export * from './payment-watch';
export * from './return-url-contract';
export * from './refund-record';
export * from './refunds';
export * from './refund-execution';
export * from './refund-operations';
export * from './entities/refund';
export * from './rules/refund';
export type { PaymentConfig, PaymentMode, ProviderName } from './settings';
export type { EsewaConfig } from './providers/esewa/settings';
export type { KhaltiConfig } from './providers/khalti/settings';

declare module '../../kernel/http/request-scope' {
  interface Services {
    /** Payment settings, the gateway adapters, logger and metrics every payment use case needs. */
    payments: PaymentDeps;
  }
}
