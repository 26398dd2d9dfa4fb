import { z } from 'zod';
import { integer, readEnv, type EnvReading } from '../settings/env-schema';

/**
 * Limits per fixed window, counted in PostgreSQL so that they hold across server processes.
 * 0 turns a limit off. Defaults are far above what a partner integration needs.
 */
export interface RateLimitConfig {
  windowSeconds: number;
  /**
   * Tokens issued per clientId: a backend needs about one an hour. Only a caller holding the
   * secret is counted, so no stranger can use it to lock a partner out.
   */
  tokenPerClient: number;
  /** Wrong secrets (or unknown clientIds) per client address: bounds guessing across clientIds. */
  tokenPerAddress: number;
  /** Wrong secrets per (clientId, client address): bounds guessing one credential's secret. */
  tokenPerClientAddress: number;
  /** Promo operations per company: bounds probing for valid codes. */
  promoPerCompany: number;
  /** Document uploads per company: a 50-traveller batch (150 documents) fits in one window. */
  uploadPerCompany: number;
  /** Document bytes stored per company per window (counted once stored; see rate-limits.ts). */
  uploadBytesPerCompany: number;
  quotePerCompany: number;
  /** Order creations (a group of up to 50 is one request). */
  orderPerCompany: number;
  /** Traveller registrations (a batch of up to 50 is one request). */
  travellerPerCompany: number;
  /** Payment starts, single and group. */
  payPerCompany: number;
  /** Certificates per company: a PDF costs CPU, so one partner's loop cannot starve the others. */
  certificatePerCompany: number;
  /** Commission statement PDFs per company: a long month's PDF costs seconds of CPU. */
  statementPdfPerCompany: number;
  /** Webhook endpoint and delivery changes per company (register, change, delete, rotate, test, retry). */
  webhookPerCompany: number;
  /** Public verification pages per client address: bounds guessing policy numbers. */
  verifyPerAddress: number;
  /**
   * Browser returns from a live payment provider per client address: each may cost a call to the
   * provider's status API, so the public return link must not be a way to make us call it at will.
   */
  providerReturnPerAddress: number;
}

/** A count a key may reach in one window; 0 turns that limit off. */
const perWindow = (fallback: number) => integer(0, 1_000_000).default(fallback);

const rateLimitsEnv = z.object({
  RATE_LIMIT_WINDOW_SECONDS: integer(1, 3600).default(60),
  RATE_LIMIT_TOKEN_PER_CLIENT: perWindow(60),
  RATE_LIMIT_TOKEN_PER_ADDRESS: perWindow(300),
  RATE_LIMIT_TOKEN_PER_CLIENT_ADDRESS: perWindow(20),
  RATE_LIMIT_PROMO_PER_COMPANY: perWindow(600),
  RATE_LIMIT_UPLOAD_PER_COMPANY: perWindow(300),
  RATE_LIMIT_UPLOAD_BYTES_PER_COMPANY: integer(0, 1024 ** 4).default(2 * 1024 ** 3),
  RATE_LIMIT_QUOTE_PER_COMPANY: perWindow(600),
  RATE_LIMIT_ORDER_PER_COMPANY: perWindow(300),
  RATE_LIMIT_TRAVELLER_PER_COMPANY: perWindow(300),
  RATE_LIMIT_PAY_PER_COMPANY: perWindow(300),
  RATE_LIMIT_CERTIFICATE_PER_COMPANY: perWindow(600),
  RATE_LIMIT_STATEMENT_PDF_PER_COMPANY: perWindow(10),
  RATE_LIMIT_WEBHOOK_PER_COMPANY: perWindow(120),
  RATE_LIMIT_VERIFY_PER_ADDRESS: perWindow(60),
  RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS: perWindow(30),
});

export function rateLimitsConfig(reading: EnvReading): RateLimitConfig {
  const env = readEnv(rateLimitsEnv, reading);
  return {
    windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
    tokenPerClient: env.RATE_LIMIT_TOKEN_PER_CLIENT,
    tokenPerAddress: env.RATE_LIMIT_TOKEN_PER_ADDRESS,
    tokenPerClientAddress: env.RATE_LIMIT_TOKEN_PER_CLIENT_ADDRESS,
    promoPerCompany: env.RATE_LIMIT_PROMO_PER_COMPANY,
    uploadPerCompany: env.RATE_LIMIT_UPLOAD_PER_COMPANY,
    uploadBytesPerCompany: env.RATE_LIMIT_UPLOAD_BYTES_PER_COMPANY,
    quotePerCompany: env.RATE_LIMIT_QUOTE_PER_COMPANY,
    orderPerCompany: env.RATE_LIMIT_ORDER_PER_COMPANY,
    travellerPerCompany: env.RATE_LIMIT_TRAVELLER_PER_COMPANY,
    payPerCompany: env.RATE_LIMIT_PAY_PER_COMPANY,
    certificatePerCompany: env.RATE_LIMIT_CERTIFICATE_PER_COMPANY,
    statementPdfPerCompany: env.RATE_LIMIT_STATEMENT_PDF_PER_COMPANY,
    webhookPerCompany: env.RATE_LIMIT_WEBHOOK_PER_COMPANY,
    verifyPerAddress: env.RATE_LIMIT_VERIFY_PER_ADDRESS,
    providerReturnPerAddress: env.RATE_LIMIT_PROVIDER_RETURN_PER_ADDRESS,
  };
}
