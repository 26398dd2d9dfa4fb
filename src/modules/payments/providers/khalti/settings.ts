import { z } from 'zod';
import {
  integer,
  readEnv,
  textSetOr,
  url,
  type EnvReading,
  type TextVariable,
} from '../../../../kernel/settings/env-schema';

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

const khaltiEnv = ({ production, providerUrl }: KhaltiContext) =>
  z.object({
    KHALTI_SECRET_KEY: textSetOr(
      'is required when a gateway is served by khalti (the merchant secret key from admin.khalti.com, or test-admin.khalti.com for its sandbox)',
    ),
    KHALTI_BASE_URL: providerUrl((production ? KHALTI_LIVE_ENVIRONMENT : KHALTI_TEST_ENVIRONMENT).baseUrl),
    KHALTI_WEBSITE_URL: url(['https:', 'http:']).optional(),
    KHALTI_LINK_MINUTES: integer(1, 1440).default(60),
  });

interface KhaltiContext {
  production: boolean;
  /** A provider URL from the environment, else `fallback`; in production neither plain HTTP nor any provider's test host. */
  providerUrl: (fallback: string) => TextVariable;
}

/** KHALTI_*, read when a gateway is served by Khalti. */
export function khaltiConfig(reading: EnvReading, context: KhaltiContext): KhaltiConfig {
  const env = readEnv(khaltiEnv(context), reading);
  return {
    secretKey: env.KHALTI_SECRET_KEY,
    baseUrl: env.KHALTI_BASE_URL.replace(/\/+$/, ''),
    websiteUrl: env.KHALTI_WEBSITE_URL,
    linkMinutes: env.KHALTI_LINK_MINUTES,
  };
}
