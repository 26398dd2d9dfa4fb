import { amountFromMinor } from '../../kernel/money';
import { returnUrlWithPaymentRef } from './rules/return-url';
import { successBody } from '../../kernel/http/envelope';
import { replayedHeaders } from '../../kernel/http/idempotent-create';
import { escapeHtml } from '../../kernel/http/html';
import {
  handleGatewayCallback,
  handleGatewayReturn,
  ReturnRefusedError,
  type CallbackResult,
} from './payment-callback';
import { providerReturnLookup } from './provider-return-limit';
import { startGroupPayment, startOrderPayment, type StartedPayment } from './payment-start';
import { getPaymentStatus, type PaymentStatusView } from './payment-status';
import { groupOverview } from './group-overview';
import { groupOverviewWire } from './group-overview-wire';
import type { ContractResponse } from '../../kernel/http/contract';
import { callerOf, type TagHandlers } from '../../kernel/http/request-scope';
import type { Schemas } from '../../kernel/http/wire';
import type { OperationPolicies, OperationPolicy } from '../../kernel/http/operation-policy';
import { refundWire } from '../refunds';
import { decideSandboxPayment } from './sandbox-outcome';
import { startOrderExtension } from './extension-start';
import { skippedMemberWire, type OrderAmendment } from '../orders';
import { startGroupExtension, type StartedGroupExtension } from './group-extension-start';

const idempotencyKeyOf = (headers: Record<string, string | string[] | undefined>): string =>
  String(headers['idempotency-key']);

export const paymentHandlers = {
  async payOrder({ body, params, headers }, scope) {
    const started = await startOrderPayment(
      scope.em,
      callerOf(scope),
      params.orderRef,
      body,
      idempotencyKeyOf(headers),
      scope.services.payments,
    );
    scope.services.metrics.paymentStarts.inc({ gateway: body.gateway });
    return {
      status: 200,
      ...replayedHeaders(started.replayed),
      body: successBody(paymentInitWire(started), 'Payment initiated'),
    };
  },

  async extendOrder({ body, params, headers }, scope) {
    const { amendment, paymentUrl, replayed } = await startOrderExtension(
      scope.em,
      callerOf(scope),
      params.orderRef,
      body,
      idempotencyKeyOf(headers),
      scope.services.payments,
    );
    const message = amendment.status === 'APPLIED' ? 'Extension applied' : 'Extension awaiting payment';
    return {
      status: 200,
      ...replayedHeaders(replayed),
      body: successBody(extensionWire(amendment, paymentUrl), message),
    };
  },

  async extendGroup({ body, params, headers }, scope) {
    const started = await startGroupExtension(
      scope.em,
      callerOf(scope),
      params.groupRef,
      body,
      idempotencyKeyOf(headers),
      scope.services.payments,
    );
    const wire = groupExtensionWire(started);
    const message = wire.status === 'APPLIED' ? 'Group extension applied' : 'Group extension awaiting payment';
    return { status: 200, ...replayedHeaders(started.replayed), body: successBody(wire, message) };
  },

  async payGroup({ body, params, headers }, scope) {
    const started = await startGroupPayment(
      scope.em,
      callerOf(scope),
      params.groupRef,
      body,
      idempotencyKeyOf(headers),
      scope.services.payments,
    );
    scope.services.metrics.paymentStarts.inc({ gateway: body.gateway });
    return {
      status: 200,
      ...replayedHeaders(started.replayed),
      body: successBody(paymentInitWire(started), 'Payment initiated'),
    };
  },

  async getOrderGroup({ params }, scope) {
    return {
      status: 200,
      body: successBody(
        groupOverviewWire(await groupOverview(scope.em, callerOf(scope), params.groupRef)),
        'Order group retrieved',
      ),
    };
  },

  async getPaymentStatus({ params }, scope) {
    const status = await getPaymentStatus(scope.em, callerOf(scope), params.orderRef, scope.services.payments);
    return { status: 200, body: successBody(paymentStatusWire(status), 'Payment status retrieved') };
  },

  async setSandboxPaymentOutcome({ params, body }, scope) {
    const caller = callerOf(scope);
    const orderRef = await decideSandboxPayment(
      scope.em,
      caller,
      params.paymentRef,
      body.outcome,
      scope.services.payments,
    );
    const status = await getPaymentStatus(scope.em.fork(), caller, orderRef, scope.services.payments);
    return { status: 200, body: successBody(paymentStatusWire(status), `Payment ${status.paymentStatus}`) };
  },

  async handlePaymentCallback({ query }, scope) {
    return returnAnswer(await handleGatewayCallback(scope.em, query, scope.services.payments));
  },

  async handleProviderReturn({ params, query }, scope) {
    const limit = await providerReturnLookup(scope);
    if (!limit.allowed) {
      return {
        status: 429,
        contentType: 'text/html',
        headers: { ...PAGE_HEADERS, 'Retry-After': String(limit.retryAfterSeconds) },
        body: tooManyReturnsPage(limit.retryAfterSeconds),
      };
    }
    const { gateway, paymentRef } = params;
    const strings = Object.fromEntries(
      Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    try {
      return returnAnswer(
        await handleGatewayReturn(scope.em, { gateway, paymentRef, query: strings }, scope.services.payments),
      );
    } catch (error) {
      // A person's browser is shown what happened and the way back; a client that asks for JSON gets error shape 2.
      if (
        !(error instanceof ReturnRefusedError) ||
        scope.req.accepts(['text/html', 'application/json']) === 'application/json'
      )
        throw error;
      return { status: 400, contentType: 'text/html', headers: PAGE_HEADERS, body: refusedReturnPage(error.attempt) };
    }
  },
} satisfies TagHandlers;

/** Pages about one customer's payment: no cache keeps them, no search engine lists them. */
const PAGE_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

/** The customer's browser goes back to the partner, or sees a plain result page when there is no returnUrl. */
function returnAnswer(
  result: CallbackResult,
): Extract<ContractResponse<'handlePaymentCallback' | 'handleProviderReturn'>, { status: 200 | 303 }> {
  if (result.returnUrl) {
    return {
      status: 303,
      headers: { Location: returnUrlWithPaymentRef(result.returnUrl, result.paymentRef), 'Cache-Control': 'no-store' },
    };
  }
  return { status: 200, contentType: 'text/html', headers: { 'Cache-Control': 'no-store' }, body: resultPage(result) };
}

function paymentInitWire(started: StartedPayment): Schemas['PaymentInit'] {
  return {
    paymentUrl: started.paymentUrl,
    gateway: started.gateway,
    paymentRef: started.paymentRef,
    amount: amountFromMinor(started.amount),
    currency: started.currency,
    expiresAt: started.expiresAt.toISOString(),
    status: started.status,
    ...(started.leftOut ? { leftOut: started.leftOut } : {}),
  };
}

/** How payment-status names the gateway an attempt went through. */
const PAYMENT_METHODS = { card_gateway: 'CARD_GATEWAY', wallet_gateway: 'WALLET_GATEWAY', cash: 'CASH' } as const;

function paymentStatusWire(status: PaymentStatusView): Schemas['PaymentStatus'] {
  const lean = {
    orderRef: status.orderRef,
    orderStatus: status.orderStatus,
    paymentStatus: status.paymentStatus,
    ...(status.policyNumber ? { policyNumber: status.policyNumber } : {}),
    ...(status.refund ? { refund: refundWire(status.refund) } : {}),
    ...(status.topUps
      ? {
          topUps: status.topUps.map((topUp) => ({
            paymentRef: topUp.paymentRef,
            amendmentRef: topUp.amendmentRef,
            paymentStatus: topUp.paymentStatus,
            paymentMethod: PAYMENT_METHODS[topUp.gateway],
            amount: amountFromMinor(topUp.amount),
            currency: topUp.currency,
          })),
        }
      : {}),
  };
  if (!status.attempt) return lean;
  return {
    ...lean,
    paymentRef: status.attempt.paymentRef,
    paymentMethod: PAYMENT_METHODS[status.attempt.gateway],
    amount: amountFromMinor(status.attempt.amount),
    currency: status.attempt.currency,
    ...(status.attempt.completedAt ? { completedAt: status.attempt.completedAt.toISOString() } : {}),
    ...(status.attempt.group
      ? { groupRef: status.attempt.group.groupRef, groupAmount: amountFromMinor(status.attempt.group.amount) }
      : {}),
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

function page(title: string, paragraphs: string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1>${paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('')}</main></body></html>`;
}

/**
 * A return that could not be checked (forged, tampered, for another payment or merchant): it
 * changed nothing, and says so in words a customer understands. When it named a payment of ours,
 * the link goes back to the partner, which then asks payment-status for the truth.
 */
function refusedReturnPage(attempt: { paymentRef: string; returnUrl?: string } | undefined): string {
  const paragraphs = [
    'This return from the payment page could not be checked, so it changed nothing. If you paid, the payment is not lost: the shop asks the payment provider directly.',
  ];
  if (attempt?.returnUrl)
    paragraphs.push(
      `<a href="${escapeHtml(returnUrlWithPaymentRef(attempt.returnUrl, attempt.paymentRef))}">Back to the shop</a>`,
    );
  else if (attempt) paragraphs.push(`Payment reference ${escapeHtml(attempt.paymentRef)}. You can close this window.`);
  else paragraphs.push('You can close this window and return to the shop where you started the payment.');
  return page('Payment not confirmed', paragraphs);
}

function tooManyReturnsPage(retryAfterSeconds: number): string {
  return page('Too many requests', [
    `This device has opened this payment page too many times in a short time. Try again in ${retryAfterSeconds} seconds.`,
  ]);
}

/** Every payment start costs a gateway call: single and group payments share one count per company. */
const payLimit: OperationPolicy = { rateLimits: [{ counter: 'pay', limit: (limits) => limits.payPerCompany }] };

export const paymentPolicies = {
  payOrder: payLimit,
  payGroup: payLimit,
  extendOrder: payLimit,
  extendGroup: payLimit,
} satisfies OperationPolicies;

/** An extension (amendment) as the contract shows it. */
function extensionWire(amendment: OrderAmendment, paymentUrl: string | null): Schemas['Extension'] {
  return {
    amendmentRef: amendment.amendmentRef,
    orderRef: amendment.order.orderRef,
    status: amendment.status,
    previousCoverageEndDate: amendment.previousCoverageEndDate,
    coverageEndDate: amendment.coverageEndDate,
    durationDays: amendment.durationDays,
    newPremium: amountFromMinor(amendment.newPremium),
    amountDue: amountFromMinor(amendment.amountDue),
    currency: amendment.order.currency,
    paymentRef: amendment.paymentRef ?? null,
    paymentUrl,
    createdAt: amendment.createdAt.toISOString(),
    appliedAt: amendment.appliedAt ? amendment.appliedAt.toISOString() : null,
    disruptionId: amendment.disruption?.disruptionRef ?? null,
  };
}

/**
 * A group's extension as the contract shows it (decision record 0108): its members' extensions
 * move together, so the group's status is the one a top-up's extensions share, or APPLIED when
 * every member was extended at once.
 */
function groupExtensionWire(started: StartedGroupExtension): Schemas['GroupExtension'] {
  const [first] = started.amendments;
  if (!first) throw new Error('a group extension without its members');
  const paying = started.amendments.filter((amendment) => amendment.paymentRef);
  return {
    groupRef: started.groupRef,
    status: paying[0]?.status ?? 'APPLIED',
    previousCoverageEndDate: first.previousCoverageEndDate,
    coverageEndDate: first.coverageEndDate,
    amountDue: amountFromMinor(started.amendments.reduce((sum, amendment) => sum + amendment.amountDue, 0)),
    currency: first.order.currency,
    paymentRef: started.paymentRef,
    paymentUrl: started.paymentUrl,
    members: started.amendments.map((amendment) =>
      extensionWire(amendment, amendment.paymentRef ? started.paymentUrl : null),
    ),
    skipped: started.skipped.map(skippedMemberWire),
  };
}
