import type { Metrics } from '../http/metrics';
import type { PaymentConfig } from '../config';
import { ProviderUnavailableError, type GatewayRegistry, type PaymentGateway } from '../gateways/gateway';
import type { PaymentMethod } from '../entities/payment-attempt';
import type { Logger } from '../logger';

/** What the payment use cases need besides a database: settings, the gateway adapters and a log. */
export interface PaymentDeps {
  payments: PaymentConfig;
  gateways: GatewayRegistry;
  logger: Logger;
  /** Absent in the operator CLI, which exports no metrics. */
  metrics?: Pick<Metrics, 'paymentOutcomes' | 'lateCaptures'>;
}

export function gatewayOf(deps: PaymentDeps, name: PaymentMethod): PaymentGateway {
  // Cash is recorded by an operator (ops order record-cash), born final: no adapter to ask or send anyone to.
  if (name === 'cash') throw new Error('A cash payment has no gateway');
  const gateway = deps.gateways.get(name);
  // No provider serves the gateway (live mode outside production): a 503 with the reason logged.
  if (!gateway) throw new ProviderUnavailableError('none', 'NOT_CONFIGURED', `no provider serves ${name}: set ${name.toUpperCase()}_PROVIDER`);
  return gateway;
}
