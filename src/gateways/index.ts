import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { GATEWAY_NAMES, type GatewayName, type GatewayRegistry } from './gateway';
import { loadGatewaySecrets } from './gateway-secrets';
import { SandboxGateway } from './sandbox/sandbox-gateway';

export interface Gateways {
  registry: GatewayRegistry;
  /** The simulated gateways whose checkout pages this process serves (sandbox mode only). */
  sandbox: ReadonlyMap<GatewayName, SandboxGateway>;
}

/**
 * The gateway adapters of this process. Sandbox mode: the two simulated gateways, the card one
 * able to void a payment, the wallet one not (see SandboxGateway). Live mode has
 * no adapter yet (real gateway adapters plug into the PaymentGateway port); pay then answers 500
 * with a logged reason rather than pretending.
 */
export function createGateways(config: Config, baseUrl: () => string, newEm: () => EntityManager): Gateways {
  if (config.payments.mode !== 'sandbox') return { registry: new Map(), sandbox: new Map() };
  const secrets = loadGatewaySecrets(config.payments, config.dataDir);
  const sandbox = new Map(GATEWAY_NAMES.map((name) => [name, new SandboxGateway(name, secrets[name], baseUrl, newEm, name === 'card_gateway')] as const));
  return { registry: sandbox, sandbox };
}
