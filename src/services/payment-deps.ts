import type { Metrics } from '../http/metrics';
import type { PaymentConfig } from '../config';
import type { GatewayName, GatewayRegistry, PaymentGateway } from '../gateways/gateway';
import type { Logger } from '../logger';

/** What the payment use cases need besides a database: settings, the gateway adapters and a log. */
export interface PaymentDeps {
  payments: PaymentConfig;
  gateways: GatewayRegistry;
  logger: Logger;
  /** Absent in the operator CLI, which exports no metrics. */
  metrics?: Pick<Metrics, 'paymentOutcomes'>;
}

export function gatewayOf(deps: PaymentDeps, name: GatewayName): PaymentGateway {
  const gateway = deps.gateways.get(name);
  // Live mode without a live adapter is an operator error, not the partner's: a 500 with the reason logged.
  if (!gateway) throw new Error(`No ${name} adapter is configured (PAYMENT_MODE=${deps.payments.mode})`);
  return gateway;
}
