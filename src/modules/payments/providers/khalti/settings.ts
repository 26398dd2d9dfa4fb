import type { EnvReader } from '../../../../kernel/settings/env-reader';

/** Khalti ePayment (KPG-2); see docs/operations.md "Going live". */
export interface KhaltiConfig {
  secretKey: string;
  /** API root without a trailing slash, e.g. https://dev.khalti.com/api/v2. */
  baseUrl: string;
  /** `website_url` sent with each initiation; PUBLIC_BASE_URL when unset. */
  websiteUrl?: string;
  /** How long Khalti's payment link takes money (60 minutes): our attempt stays open at least as long. */
  linkMinutes: number;
}

/** Khalti's API roots: its published test environment (docs/decisions/0039-live-payment-providers-khalti-and-esewa-behind-the-gateway.md) and the live one. */
export const KHALTI_TEST_ENVIRONMENT = { baseUrl: 'https://dev.khalti.com/api/v2' } as const;
export const KHALTI_LIVE_ENVIRONMENT = { baseUrl: 'https://khalti.com/api/v2' } as const;

/** Hosts of Khalti's test environments: production must not take "payments" there. */
export const KHALTI_TEST_HOSTS: readonly string[] = ['dev.khalti.com', 'a.khalti.com', 'test-pay.khalti.com'];

/**
 * KHALTI_*, read when a gateway is served by Khalti. `providerUrl` reads a provider URL from the
 * environment, else `fallback`, and in production refuses plain HTTP and any provider's test host.
 */
export function khaltiConfig(read: EnvReader, { production, providerUrl }: { production: boolean; providerUrl: (name: string, fallback: string) => string }): KhaltiConfig {
  const secretKey = read.optional('KHALTI_SECRET_KEY');
  if (!secretKey) read.problems.push('KHALTI_SECRET_KEY is required when a gateway is served by khalti (the merchant secret key from admin.khalti.com, or test-admin.khalti.com for its sandbox)');
  const environment = production ? KHALTI_LIVE_ENVIRONMENT : KHALTI_TEST_ENVIRONMENT;
  return {
    secretKey: secretKey ?? '',
    baseUrl: providerUrl('KHALTI_BASE_URL', environment.baseUrl).replace(/\/+$/, ''),
    websiteUrl: read.url('KHALTI_WEBSITE_URL', ['https:', 'http:']),
    linkMinutes: read.integer('KHALTI_LINK_MINUTES', 60, 1, 1440),
  };
}
