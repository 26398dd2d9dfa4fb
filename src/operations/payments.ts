import { amountFromMinor } from '../domain/money';
import { returnUrlWithPaymentRef } from '../domain/return-url';
import { isGatewayName, type GatewayName } from '../gateways/gateway';
import { badRequest } from '../http/app-error';
import { successBody } from '../http/envelope';
import { escapeHtml } from '../http/html';
import { handleGatewayCallback, handleGatewayReturn, type CallbackResult } from '../services/payment-callback';
import { startGroupPayment, startOrderPayment, type StartedPayment } from '../services/payment-start';
import { getPaymentStatus, type PaymentStatusView } from '../services/payment-status';
import { callerOf, type OperationHandlers, type OperationResult } from './operation';
import type { Schemas } from './wire';

const idempotencyKeyOf = (headers: Record<string, string | string[] | undefined>): string => String(headers['idempotency-key']);

export const paymentHandlers: OperationHandlers = {
  async payOrder(c, scope) {
    const request = c.request.requestBody as Schemas['PayRequest'];
    const started = await startOrderPayment(scope.em, callerOf(scope), c.request.params.orderRef, request, idempotencyKeyOf(c.request.headers), scope.services.payments);
    scope.services.metrics.paymentStarts.inc({ gateway: request.gateway });
    return { status: 200, body: successBody(paymentInitWire(started), 'Payment initiated') };
  },

  async payGroup(c, scope) {
    const request = c.request.requestBody as Schemas['PayRequest'];
    const started = await startGroupPayment(scope.em, callerOf(scope), c.request.params.groupRef, request, idempotencyKeyOf(c.request.headers), scope.services.payments);
    scope.services.metrics.paymentStarts.inc({ gateway: request.gateway });
    return { status: 200, body: successBody(paymentInitWire(started), 'Payment initiated') };
  },

  async getPaymentStatus(c, scope) {
    const status = await getPaymentStatus(scope.em, callerOf(scope), c.request.params.orderRef, scope.services.payments);
    return { status: 200, body: successBody(paymentStatusWire(status), 'Payment status retrieved') };
  },

  async handlePaymentCallback(c, scope): Promise<OperationResult> {
    const query = c.request.query as { gateway: GatewayName; payload: string; signature: string };
    return returnAnswer(await handleGatewayCallback(scope.em, query, scope.services.payments));
  },

  async handleProviderReturn(c, scope): Promise<OperationResult> {
    const { gateway, paymentRef } = c.request.params;
    // The spec's enum already refused any other value; the guard narrows the type without a cast.
    if (!isGatewayName(gateway)) throw badRequest('Invalid payment callback');
    const query = Object.fromEntries(Object.entries(c.request.query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    return returnAnswer(await handleGatewayReturn(scope.em, { gateway, paymentRef, query }, scope.services.payments));
  },
};

/** The customer's browser goes back to the partner, or sees a plain result page when there is no returnUrl. */
function returnAnswer(result: CallbackResult): OperationResult {
  if (result.returnUrl) {
    return { status: 303, headers: { Location: returnUrlWithPaymentRef(result.returnUrl, result.paymentRef), 'Cache-Control': 'no-store' } };
  }
  return { status: 200, contentType: 'html', headers: { 'Cache-Control': 'no-store' }, body: resultPage(result) };
}

function paymentInitWire(started: StartedPayment): Schemas['PaymentInit'] {
  return {
    paymentUrl: started.paymentUrl,
    gateway: started.gateway,
    paymentRef: started.paymentRef,
    amount: amountFromMinor(started.amount),
    currency: started.currency,
    expiresAt: started.expiresAt.toISOString(),
  };
}

function paymentStatusWire(status: PaymentStatusView): Schemas['PaymentStatus'] {
  const lean = {
    orderRef: status.orderRef,
    orderStatus: status.orderStatus,
    paymentStatus: status.paymentStatus,
    ...(status.policyNumber ? { policyNumber: status.policyNumber } : {}),
  };
  if (!status.attempt) return lean;
  return {
    ...lean,
    paymentRef: status.attempt.paymentRef,
    paymentMethod: status.attempt.gateway.toUpperCase() as Schemas['PaymentStatus']['paymentMethod'],
    amount: amountFromMinor(status.attempt.amount),
    currency: status.attempt.currency,
    ...(status.attempt.completedAt ? { completedAt: status.attempt.completedAt.toISOString() } : {}),
    ...(status.attempt.group ? { groupRef: status.attempt.group.groupRef, groupAmount: amountFromMinor(status.attempt.group.amount) } : {}),
  };
}

const RESULT_TITLES: Record<string, string> = {
  SUCCESS: 'Payment received',
  FAILED: 'Payment failed',
  CANCELLED: 'Payment cancelled',
  EXPIRED: 'Payment expired',
  INITIATED: 'Payment pending',
  REFUND_PENDING: 'Payment received after the checkout closed: it will be refunded',
  REFUNDED: 'Payment refunded',
};

/** Shown to the customer when the partner gave no returnUrl. */
function resultPage(result: CallbackResult): string {
  const title = RESULT_TITLES[result.status] ?? 'Payment';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>Payment reference ${escapeHtml(result.paymentRef)}. You can close this window.</p></body></html>`;
}
