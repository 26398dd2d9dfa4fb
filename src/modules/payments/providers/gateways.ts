import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../kernel/logging/logger';
import { EsewaGateway } from './esewa/esewa-gateway';
import { esewaCheckoutPath } from './esewa/esewa-checkout-routes';
import { GATEWAY_NAMES, type GatewayName, type GatewayRegistry, type PaymentGateway } from './gateway';
import { loadGatewaySecrets } from './sandbox/gateway-secrets';
import { KhaltiGateway } from './khalti/khalti-gateway';
import type { ProviderCallPolicy } from './provider-http';
import type { PaymentConfig } from '../settings';
import { SandboxGateway } from './sandbox/sandbox-gateway';

export interface Gateways {
  registry: GatewayRegistry;
  /** The simulated gateways whose checkout pages this process serves (sandbox mode only). */
  sandbox: ReadonlyMap<GatewayName, SandboxGateway>;
  /** Gateways served by eSewa, whose signed-form pages this process serves. */
  esewa: ReadonlyMap<GatewayName, EsewaGateway>;
}

/** Where a provider sends the customer's browser back: one path per gateway and payment. */
export const providerReturnPath = (gateway: GatewayName, paymentRef: string) =>
  `/api/external/payment/response/${gateway}/${encodeURIComponent(paymentRef)}`;

/**
 * The gateway adapters of this process. Each gateway takes new payments through the provider
 * CARD_GATEWAY_PROVIDER / WALLET_GATEWAY_PROVIDER names: the sandbox (the card one able to void,
 * the wallet one not), Khalti or eSewa. A gateway with no provider has no adapter for new
 * payments: pay answers 503 (production refuses to start that way, see config). Every other
 * provider with settings (KHALTI_SECRET_KEY, ESEWA_*, the sandbox in sandbox mode) keeps an
 * adapter too, so the payments it took before the setting changed are still looked up and
 * refunded where they were made.
 */
export function createGateways(
  config: { payments: PaymentConfig; dataDir: string },
  baseUrl: () => string,
  newEm: () => EntityManager,
  logger: Logger,
): Gateways {
  const { payments } = config;
  const policy: ProviderCallPolicy = {
    timeoutMs: payments.providerTimeoutMs,
    lookupAttempts: payments.providerLookupAttempts,
    logger,
  };
  const secrets = payments.mode === 'sandbox' ? loadGatewaySecrets(payments, config.dataDir) : undefined;
  const returnUrl = (gateway: GatewayName) => (paymentRef: string) =>
    `${baseUrl()}${providerReturnPath(gateway, paymentRef)}`;
  const adapters = new Map<string, PaymentGateway>();
  const current = new Map<GatewayName, PaymentGateway>();
  const sandbox = new Map<GatewayName, SandboxGateway>();
  const esewa = new Map<GatewayName, EsewaGateway>();
  for (const name of GATEWAY_NAMES) {
    const made: PaymentGateway[] = [];
    if (secrets) {
      const gateway = new SandboxGateway(name, secrets[name], baseUrl, newEm, name === 'card_gateway');
      if (payments.providers[name] === 'sandbox') sandbox.set(name, gateway);
      made.push(gateway);
    }
    if (payments.khalti) {
      const settings = { ...payments.khalti, websiteUrl: payments.khalti.websiteUrl ?? baseUrl() };
      made.push(new KhaltiGateway(name, settings, returnUrl(name), policy));
    }
    if (payments.esewa) {
      const gateway = new EsewaGateway(
        name,
        payments.esewa,
        { checkoutPage: (g, ref) => `${baseUrl()}${esewaCheckoutPath(g, ref)}`, returnUrl: returnUrl(name) },
        policy,
      );
      if (payments.providers[name] === 'esewa') esewa.set(name, gateway);
      made.push(gateway);
    }
    for (const gateway of made) {
      adapters.set(adapterKey(name, gateway.provider), gateway);
      if (gateway.provider === payments.providers[name]) current.set(name, gateway);
    }
  }
  return {
    registry: {
      get: (name) => current.get(name),
      of: (name, provider) => adapters.get(adapterKey(name, provider)),
      size: adapters.size,
    },
    sandbox,
    esewa,
  };
}

const adapterKey = (gateway: GatewayName, provider: string) => `${gateway}:${provider}`;
