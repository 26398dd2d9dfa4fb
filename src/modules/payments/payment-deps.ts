import type { PaymentConfig } from './settings';
import { ProviderUnavailableError, type GatewayRegistry, type PaymentGateway } from './providers/gateway';
import type { PaymentMethod } from './entities/payment-attempt';
import type { Logger } from '../../kernel/logging/logger';

/** A counter with labels, as the payment use cases count; http/metrics' Prometheus counters are these. */
export interface LabelledCounter<Label extends string> {
  inc(labels: Partial<Record<Label, string | number>>, value?: number): void;
}

/** What the payment use cases need besides a database: settings, the gateway adapters and a log. */
export interface PaymentDeps {
  payments: PaymentConfig;
  gateways: GatewayRegistry;
  logger: Logger;
  /** Absent in the operator CLI, which exports no metrics. */
  metrics?: { paymentOutcomes: LabelledCounter<'gateway' | 'outcome'>; lateCaptures: LabelledCounter<'gateway'>; refunds?: LabelledCounter<'gateway' | 'status'> };
  /**
   * Asks the refund executor to run soon (after the caller's commit: it runs on its own
   * connection and finds only committed refunds). Absent where no executor runs (the CLI):
   * the periodic pass finds them.
   */
  kickRefunds?: () => void;
}

export function gatewayOf(deps: PaymentDeps, name: PaymentMethod): PaymentGateway {
  // Cash is recorded by an operator (ops order record-cash), born final: no adapter to ask or send anyone to.
  if (name === 'cash') throw new Error('A cash payment has no gateway');
  const gateway = deps.gateways.get(name);
  // No provider serves the gateway (live mode outside production): a 503 with the reason logged.
  if (!gateway) throw new ProviderUnavailableError('none', 'NOT_CONFIGURED', `no provider serves ${name}: set ${name.toUpperCase()}_PROVIDER`);
  return gateway;
}
