import type { EnvReader } from '../../../../kernel/settings/env-reader';

/** eSewa ePay v2; see docs/operations.md "Going live". */
export interface EsewaConfig {
  productCode: string;
  secretKey: string;
  formUrl: string;
  statusUrl: string;
}

/** eSewa's published test environment and merchant credential (docs/decisions/0039-live-payment-providers-khalti-and-esewa-behind-the-gateway.md). */
export const ESEWA_TEST_ENVIRONMENT = {
  formUrl: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form',
  statusUrl: 'https://rc.esewa.com.np/api/epay/transaction/status/',
  productCode: 'EPAYTEST',
  secretKey: '8gBm/:&EnhH.1/q',
} as const;

export const ESEWA_LIVE_ENVIRONMENT = {
  formUrl: 'https://epay.esewa.com.np/api/epay/main/v2/form',
  statusUrl: 'https://epay.esewa.com.np/api/epay/transaction/status/',
} as const;

/** Hosts of eSewa's test environments: production must not take "payments" there. */
export const ESEWA_TEST_HOSTS: readonly string[] = ['rc-epay.esewa.com.np', 'rc.esewa.com.np', 'uat.esewa.com.np'];

/** ESEWA_*, read when a gateway is served by eSewa; `providerUrl` as in khalti/settings.ts. */
export function esewaConfig(read: EnvReader, { production, providerUrl }: { production: boolean; providerUrl: (name: string, fallback: string) => string }): EsewaConfig {
  // Outside production eSewa's published test merchant works out of the box; production must bring its own.
  const productCode = read.optional('ESEWA_PRODUCT_CODE') ?? (production ? undefined : ESEWA_TEST_ENVIRONMENT.productCode);
  const secretKey = read.optional('ESEWA_SECRET_KEY') ?? (production ? undefined : ESEWA_TEST_ENVIRONMENT.secretKey);
  if (!productCode || !secretKey) read.problems.push('ESEWA_PRODUCT_CODE and ESEWA_SECRET_KEY are required in production when a gateway is served by esewa');
  if (production && (productCode === ESEWA_TEST_ENVIRONMENT.productCode || secretKey === ESEWA_TEST_ENVIRONMENT.secretKey)) {
    read.problems.push("ESEWA_PRODUCT_CODE or ESEWA_SECRET_KEY is eSewa's published test credential, not allowed when NODE_ENV=production");
  }
  const environment = production ? ESEWA_LIVE_ENVIRONMENT : ESEWA_TEST_ENVIRONMENT;
  return {
    productCode: productCode ?? '',
    secretKey: secretKey ?? '',
    formUrl: providerUrl('ESEWA_FORM_URL', environment.formUrl),
    statusUrl: providerUrl('ESEWA_STATUS_URL', environment.statusUrl),
  };
}
