import { z } from 'zod';
import { anyText, readEnv, type EnvReading, type TextVariable } from '../../../../kernel/settings/env-schema';

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

interface EsewaContext {
  production: boolean;
  /** A provider URL from the environment, else `fallback`; in production neither plain HTTP nor any provider's test host. */
  providerUrl: (fallback: string) => TextVariable;
}

// Outside production eSewa's published test merchant works out of the box; production must bring its own.
const credentialsEnv = ({ production }: Pick<EsewaContext, 'production'>) =>
  z.object({
    ESEWA_PRODUCT_CODE: production ? anyText().optional() : anyText().default(ESEWA_TEST_ENVIRONMENT.productCode),
    ESEWA_SECRET_KEY: production ? anyText().optional() : anyText().default(ESEWA_TEST_ENVIRONMENT.secretKey),
  });

const endpointsEnv = ({ production, providerUrl }: EsewaContext) => {
  const environment = production ? ESEWA_LIVE_ENVIRONMENT : ESEWA_TEST_ENVIRONMENT;
  return z.object({
    ESEWA_FORM_URL: providerUrl(environment.formUrl),
    ESEWA_STATUS_URL: providerUrl(environment.statusUrl),
  });
};

/** ESEWA_*, read when a gateway is served by eSewa: the credentials, checked together, then the endpoints. */
export function esewaConfig(reading: EnvReading, context: EsewaContext): EsewaConfig {
  const { ESEWA_PRODUCT_CODE: productCode, ESEWA_SECRET_KEY: secretKey } = readEnv(credentialsEnv(context), reading);
  if (!productCode || !secretKey)
    reading.problems.push(
      'ESEWA_PRODUCT_CODE and ESEWA_SECRET_KEY are required in production when a gateway is served by esewa',
    );
  if (
    context.production &&
    (productCode === ESEWA_TEST_ENVIRONMENT.productCode || secretKey === ESEWA_TEST_ENVIRONMENT.secretKey)
  ) {
    reading.problems.push(
      "ESEWA_PRODUCT_CODE or ESEWA_SECRET_KEY is eSewa's published test credential, not allowed when NODE_ENV=production",
    );
  }
  const endpoints = readEnv(endpointsEnv(context), reading);
  return {
    productCode: productCode ?? '',
    secretKey: secretKey ?? '',
    formUrl: endpoints.ESEWA_FORM_URL,
    statusUrl: endpoints.ESEWA_STATUS_URL,
  };
}
