import { randomBytes } from 'node:crypto';

/**
 * The settings of a production deployment's payment providers: Khalti for cards, eSewa for the
 * wallet, with credentials of their own (drawn here: a key written into the repository would be
 * a published one). Nothing is asked of the providers at start.
 */
export function liveProvidersEnv(): Record<string, string> {
  return {
    CARD_GATEWAY_PROVIDER: 'khalti',
    WALLET_GATEWAY_PROVIDER: 'esewa',
    KHALTI_SECRET_KEY: randomBytes(16).toString('hex'),
    ESEWA_PRODUCT_CODE: 'NP-ES-TREKCOVER',
    ESEWA_SECRET_KEY: randomBytes(16).toString('hex'),
  };
}
