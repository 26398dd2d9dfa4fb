import { createHmac, timingSafeEqual } from 'node:crypto';
import { amountFromMinor, minorFromAmount } from '../../../kernel/money';
import { InvalidCallbackError, type GatewayReport } from './gateway';

/**
 * The callback wire format: `payload` is base64url(JSON), `signature` the lower-case hex
 * HMAC-SHA256 of the `payload` string under the gateway's secret (the way Nepal's wallet gateways
 * sign theirs). Signing the encoded string, not re-serialised JSON, leaves no canonicalisation gap.
 */
export function signCallback(report: GatewayReport, secret: string): { payload: string; signature: string } {
  const json = JSON.stringify({
    paymentRef: report.paymentRef,
    status: report.status,
    amount: amountFromMinor(report.amount),
    currency: report.currency,
    gatewayTransactionId: report.gatewayTransactionId,
    issuedAt: report.issuedAt.toISOString(),
    ...(report.reason ? { reason: report.reason } : {}),
  });
  const payload = Buffer.from(json, 'utf8').toString('base64url');
  return { payload, signature: hmacHex(payload, secret) };
}

export function verifySignedCallback(payload: string, signature: string, secret: string): GatewayReport {
  const expected = Buffer.from(hmacHex(payload, secret), 'hex');
  const given = /^[0-9a-fA-F]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new InvalidCallbackError('signature does not match');
  return decodePayload(payload);
}

/**
 * The payment a signed callback claims to be about, read before its signature is checked (to
 * find the attempt); nothing else in it is trusted until verifySignedCallback.
 */
export function claimedPaymentRef(payload: string): string {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCallbackError('payload is not base64url JSON');
  }
  const paymentRef =
    decoded !== null && typeof decoded === 'object' && 'paymentRef' in decoded ? decoded.paymentRef : undefined;
  if (typeof paymentRef !== 'string' || paymentRef === '') throw new InvalidCallbackError('paymentRef missing');
  return paymentRef;
}

function hmacHex(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('hex');
}

function decodePayload(payload: string): GatewayReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCallbackError('payload is not base64url JSON');
  }
  // A payload of JSON null, a number or a string has none of the fields: it fails the checks below.
  const decoded: Partial<Record<string, unknown>> = typeof parsed === 'object' && parsed !== null ? { ...parsed } : {};
  const { paymentRef, status, amount, currency, gatewayTransactionId, issuedAt, reason } = decoded;
  if (typeof paymentRef !== 'string' || paymentRef === '') throw new InvalidCallbackError('paymentRef missing');
  if (status !== 'SUCCESS' && status !== 'FAILED' && status !== 'CANCELLED')
    throw new InvalidCallbackError('unknown status');
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
    throw new InvalidCallbackError('amount missing');
  if (typeof currency !== 'string' || typeof gatewayTransactionId !== 'string' || gatewayTransactionId === '') {
    throw new InvalidCallbackError('currency or transaction id missing');
  }
  const issued = typeof issuedAt === 'string' ? new Date(issuedAt) : new Date(NaN);
  if (Number.isNaN(issued.getTime())) throw new InvalidCallbackError('issuedAt missing');
  // An amount with more than two decimals cannot be a real charge; refuse rather than round.
  if (Math.abs(amount * 100 - Math.round(amount * 100)) > 1e-6) {
    throw new InvalidCallbackError('amount has more than two decimals');
  }
  return {
    paymentRef,
    status,
    amount: minorFromAmount(amount),
    currency,
    gatewayTransactionId,
    issuedAt: issued,
    reason: typeof reason === 'string' ? reason : undefined,
  };
}
