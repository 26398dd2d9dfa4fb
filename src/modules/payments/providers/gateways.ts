import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../kernel/logging/logger';
import { EsewaGateway } from './esewa/esewa-gateway';
import { esewaCheckoutPath } from './esewa/esewa-checkout-routes';
import { GATEWAY_NAMES, type GatewayName, type PaymentGateway } from './gateway';
import { loadGatewaySecrets } from './sandbox/gateway-secrets';
import { KhaltiGateway } from './khalti/khalti-gateway';
import type { ProviderCallPolicy } from './provider-http';
import type { PaymentConfig } from '../settings';
import { SandboxGateway } from './sandbox/sandbox-gateway';

export interface Gateways {
  registry: ReadonlyMap<GatewayName, PaymentGateway>;
  /** The simulated gateways whose checkout pages this process serves (sandbox mode only). */
  sandbox: ReadonlyMap<GatewayName, SandboxGateway>;
  /** Gateways served by eSewa, whose signed-form pages this process serves. */
  esewa: ReadonlyMap<GatewayName, EsewaGateway>;
}

/** Where a provider sends the customer's browser back: one path per gateway and payment. */
export const providerReturnPath = (gateway: GatewayName, paymentRef: string) => `/api/external/payment/response/${gateway}/${encodeURIComponent(paymentRef)}`;

/**
 * The gateway adapters of this process, one per partner-facing gateway, chosen by
 * CARD_GATEWAY_PROVIDER / WALLET_GATEWAY_PROVIDER: the sandbox (the card one able to void, the
 * wallet one not), Khalti or eSewa. A gateway with no provider has no adapter: pay answers 503
 * (production refuses to start that way, see config).
 */
export function createGateways(config: { payments: PaymentConfig; dataDir: string }, baseUrl: () => string, newEm: () => EntityManager, logger: Logger): Gateways {
  const { payments } = config;
  const policy: ProviderCallPolicy = { timeoutMs: payments.providerTimeoutMs, lookupAttempts: payments.providerLookupAttempts, logger };
  const secrets = payments.mode === 'sandbox' && GATEWAY_NAMES.some((name) => payments.providers[name] === 'sandbox') ? loadGatewaySecrets(payments, config.dataDir) : undefined;
  const returnUrl = (gateway: GatewayName) => (paymentRef: string) => `${baseUrl()}${providerReturnPath(gateway, paymentRef)}`;
  const registry = new Map<GatewayName, PaymentGateway>();
  const sandbox = new Map<GatewayName, SandboxGateway>();
  const esewa = new Map<GatewayName, EsewaGateway>();
  for (const name of GATEWAY_NAMES) {
    const provider = payments.providers[name];
    if (provider === 'sandbox' && secrets) {
      const gateway = new SandboxGateway(name, secrets[name], baseUrl, newEm, name === 'card_gateway');
      sandbox.set(name, gateway);
      registry.set(name, gateway);
    } else if (provider === 'khalti' && payments.khalti) {
      const settings = { ...payments.khalti, websiteUrl: payments.khalti.websiteUrl ?? baseUrl() };
      registry.set(name, new KhaltiGateway(name, settings, returnUrl(name), policy));
    } else if (provider === 'esewa' && payments.esewa) {
      const gateway = new EsewaGateway(name, payments.esewa, { checkoutPage: (g, ref) => `${baseUrl()}${esewaCheckoutPath(g, ref)}`, returnUrl: returnUrl(name) }, policy);
      esewa.set(name, gateway);
      registry.set(name, gateway);
    }
  }
  return { registry, sandbox, esewa };
}
