import { randomBytes } from 'node:crypto';

/**
 * The settings a production deployment must give: the https address it is reached at
 * (PUBLIC_BASE_URL: QR codes and provider return URLs are built from it), its payment providers
 * (Khalti for cards, eSewa for the wallet, with credentials of their own, drawn here: a key
 * written into the repository would be a published one; nothing is asked of the providers at
 * start) and the assistance contacts, policy wording and licences its certificates print.
 */
export function liveProvidersEnv(): Record<string, string> {
  return {
    PUBLIC_BASE_URL: 'https://partners.trekcover.example.com',
    ASSISTANCE_PHONE: '+977 1 5970 000',
    ASSISTANCE_EMAIL: 'assistance@trekcover.example.com',
    POLICY_WORDING_URL: 'https://trekcover.example.com/policy-wording-2026.pdf',
    POLICY_WORDING_VERSION: 'TREK-2026.1',
    INSURER_LICENCE: 'Nepal Insurance Authority licence 07/2061',
    INSURER_ADDRESS: 'Kamaladi, Kathmandu 44600, Nepal',
    INTERMEDIARY_ROLE: 'Corporate agent of the insurer',
    INTERMEDIARY_LICENCE: 'NIA corporate agent licence 1234',
    INSURER_PAN: '300012345',
    CARD_GATEWAY_PROVIDER: 'khalti',
    WALLET_GATEWAY_PROVIDER: 'esewa',
    KHALTI_SECRET_KEY: randomBytes(16).toString('hex'),
    ESEWA_PRODUCT_CODE: 'NP-ES-TREKCOVER',
    ESEWA_SECRET_KEY: randomBytes(16).toString('hex'),
    // Live endpoints are public HTTPS only, whatever a sandbox test environment allows.
    WEBHOOK_ALLOW_PRIVATE_ENDPOINTS: 'false',
  };
}
