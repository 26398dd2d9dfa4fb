import { loadConfig } from '../../src/config';
import { returnUrlProblem, returnUrlWithPaymentRef } from '../../src/modules/payments/rules/return-url';
import { signCallback, verifySignedCallback } from '../../src/modules/payments/providers/callback-signature';
import { InvalidCallbackError } from '../../src/modules/payments/providers/gateway';
import { decideCheckout } from '../../src/modules/payments/providers/sandbox/test-instruments';

const SECRET = 'x'.repeat(43);
const report = {
  paymentRef: 'ORD-2026-000142-1789892411482',
  status: 'SUCCESS' as const,
  amount: 1795500,
  currency: 'NPR',
  gatewayTransactionId: 'CG-1',
  issuedAt: new Date('2026-09-20T08:24:37Z'),
};

describe('signed callbacks', () => {
  it('round-trip under the gateway secret, amount in NPR on the wire', () => {
    const { payload, signature } = signCallback(report, SECRET);
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString()).amount).toBe(17955);
    expect(verifySignedCallback(payload, signature, SECRET)).toEqual({ ...report, reason: undefined });
  });
  it('refuse another secret, a changed payload and a malformed signature', () => {
    const { payload, signature } = signCallback(report, SECRET);
    expect(() => verifySignedCallback(payload, signature, 'y'.repeat(43))).toThrow(InvalidCallbackError);
    expect(() =>
      verifySignedCallback(signCallback({ ...report, amount: 1 }, 'z'.repeat(43)).payload, signature, SECRET),
    ).toThrow(InvalidCallbackError);
    expect(() => verifySignedCallback(payload, 'zz', SECRET)).toThrow(InvalidCallbackError);
  });
});

describe('returnUrl', () => {
  it('must be absolute https unless plain HTTP is allowed', () => {
    expect(returnUrlProblem('https://partner.example/done', false)).toBeUndefined();
    expect(returnUrlProblem('http://partner.example/done', false)).toBe('must be an https URL');
    expect(returnUrlProblem('http://partner.example/done', true)).toBeUndefined();
    expect(returnUrlProblem('ftp://partner.example/done', true)).toBe('must be an https URL');
    expect(returnUrlProblem('/done', true)).toBe('must be an absolute https URL');
  });
  it('gets paymentRef appended, keeping its own query', () => {
    expect(returnUrlWithPaymentRef('https://p.example/done?x=1', 'ORD-1-2')).toBe(
      'https://p.example/done?x=1&paymentRef=ORD-1-2',
    );
  });
  it('plain HTTP and the sandbox are never allowed in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        ALLOW_HTTP_RETURN_URL: 'true',
        CARD_GATEWAY_SECRET: SECRET,
        WALLET_GATEWAY_SECRET: SECRET,
      }),
    ).toThrow(/ALLOW_HTTP_RETURN_URL/);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_MODE: 'sandbox' })).toThrow(/PAYMENT_MODE=sandbox/);
    expect(loadConfig({}).payments).toMatchObject({
      mode: 'sandbox',
      allowHttpReturnUrl: false,
      attemptTtlMinutes: 15,
    });
  });
});

describe('sandbox test instruments', () => {
  it.each([
    ['4242 4242 4242 4242', 'SUCCESS', undefined],
    ['4000 0000 0000 0002', 'FAILED', 'CARD_DECLINED'],
    ['4000-0000-0000-9995', 'FAILED', 'INSUFFICIENT_FUNDS'],
  ])('card %s: %s', (cardNumber, status, reason) => {
    expect(decideCheckout('card_gateway', { action: 'pay', cardNumber })).toMatchObject({
      decided: true,
      status,
      reason,
    });
  });
  it('wallet 9800000001 needs PIN 1234; 9800000002 declines; others decide nothing', () => {
    expect(decideCheckout('wallet_gateway', { action: 'pay', walletId: '9800000001', pin: '1234' })).toMatchObject({
      decided: true,
      status: 'SUCCESS',
    });
    expect(decideCheckout('wallet_gateway', { action: 'pay', walletId: '9800000001', pin: '0000' })).toMatchObject({
      decided: false,
    });
    expect(decideCheckout('wallet_gateway', { action: 'pay', walletId: '9800000002', pin: '1234' })).toMatchObject({
      decided: true,
      status: 'FAILED',
    });
    expect(decideCheckout('card_gateway', { action: 'pay', cardNumber: '4111111111111111' })).toMatchObject({
      decided: false,
    });
    expect(decideCheckout('card_gateway', { action: 'cancel' })).toMatchObject({ decided: true, status: 'CANCELLED' });
  });
});
