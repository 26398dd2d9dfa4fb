import type { PaymentConfig } from './settings';
import { ProviderUnavailableError, type GatewayRegistry, type PaymentGateway } from './providers/gateway';
import type { PaymentMethod } from './entities/payment-attempt';
import type { Logger } from '../../kernel/logging/logger';
import { ReturnLookupCache } from './providers/return-lookup-cache';
import type { RefundWrites } from '../refunds';

/**
 * payment-status's cache of providers' answers (PaymentDeps.statusLookups), one per process;
 * none when PAYMENT_STATUS_LOOKUP_SECONDS is 0 (decision record 0096).
 */
export const statusLookupCache = (config: Pick<PaymentConfig, 'statusLookupSeconds'>): ReturnLookupCache | undefined =>
  config.statusLookupSeconds > 0 ? new ReturnLookupCache(config.statusLookupSeconds * 1000) : undefined;

/** A counter with labels, as the payment use cases count; http/metrics' Prometheus counters are these. */
export interface LabelledCounter<Label extends string> {
  inc(labels: Partial<Record<Label, string | number>>, value?: number): void;
}

/** What the payment use cases need besides a database: settings, the gateway adapters and a log. */
export interface PaymentDeps {
  payments: PaymentConfig;
  gateways: GatewayRegistry;
  logger: Logger;
  /** Payments' writer of what a refund does to its share and attempt (`refundWrites`), given to refunds' writers (decision record 0111). */
  refundWrites: RefundWrites;
  /** Absent in the operator CLI, which exports no metrics. */
  metrics?: {
    paymentOutcomes: LabelledCounter<'gateway' | 'outcome'>;
    lateCaptures: LabelledCounter<'gateway'>;
    refunds?: LabelledCounter<'gateway' | 'status'>;
  };
  /**
   * Asks the refund executor to run soon (after the caller's commit: it runs on its own
   * connection and finds only committed refunds). Absent where no executor runs (the CLI):
   * the periodic pass finds them.
   */
  kickRefunds?: () => void;
  /**
   * The provider's recent answers about open checkouts, reused by payment-status for a few
   * seconds per attempt. Absent (the CLI, some tests): payment-status asks the provider each time.
   */
  statusLookups?: ReturnLookupCache;
}

/** The adapter that takes new payments of a gateway: its configured provider. */
export function gatewayOf(deps: Pick<PaymentDeps, 'gateways'>, name: PaymentMethod): PaymentGateway {
  // Cash is recorded by an operator (ops order record-cash), born final: no adapter to ask or send anyone to.
  if (name === 'cash') throw new Error('A cash payment has no gateway');
  const gateway = deps.gateways.get(name);
  // No provider serves the gateway (live mode outside production): a 503 with the reason logged.
  if (!gateway)
    throw new ProviderUnavailableError(
      'none',
      'NOT_CONFIGURED',
      `no provider serves ${name}: set ${name.toUpperCase()}_PROVIDER`,
    );
  return gateway;
}

/**
 * The adapter of the provider that took an attempt, whatever the gateway's provider is today; an
 * attempt from before providers were recorded (provider null) is the configured one's. A provider
 * whose settings are gone cannot be asked: a 503-class answer, never the other provider.
 */
export function gatewayOfAttempt(
  deps: Pick<PaymentDeps, 'gateways'>,
  attempt: { gateway: PaymentMethod; provider?: string | null },
): PaymentGateway {
  if (attempt.gateway === 'cash') throw new Error('A cash payment has no gateway');
  if (!attempt.provider) return gatewayOf(deps, attempt.gateway);
  const gateway = deps.gateways.of(attempt.gateway, attempt.provider);
  if (!gateway)
    throw new ProviderUnavailableError(
      attempt.provider,
      'NOT_CONFIGURED',
      `${attempt.provider} took this ${attempt.gateway} payment and has no settings any more`,
    );
  return gateway;
}
