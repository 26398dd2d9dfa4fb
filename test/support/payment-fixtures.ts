import { randomUUID } from 'node:crypto';
import { signCallback } from '../../src/modules/payments/providers/callback-signature';
import type { GatewayName, GatewayReport } from '../../src/modules/payments/providers/gateway';
import { Order, OrderStatus } from '../../src/modules/orders/entities/order';
import { PaymentAttempt } from '../../src/modules/payments/entities/payment-attempt';
import type { RunningServer } from '../../src/server';
import { CTGS } from './catalogue-fixtures';
import type { ApiClient, ApiResponse, WireJson } from './http-client';
import { departure, ORDERS } from './order-fixtures';
import type { TestPartner } from './partners';
import { newTraveller } from './traveller-fixtures';

export const CALLBACK = '/api/external/payment/response';
export const RETURN_URL = 'https://booking.himalayantrails.example.com/payments/complete';

export const payPath = (identifier: string) => `${ORDERS}/${encodeURIComponent(identifier)}/pay`;
export const statusPath = (identifier: string) => `${ORDERS}/${encodeURIComponent(identifier)}/payment-status`;
export const groupPayPath = (groupRef: string) => `${ORDERS}/groups/${encodeURIComponent(groupRef)}/pay`;

export interface PlacedOrder {
  orderId: string;
  orderRef: string;
  orderNumber: string;
  totalAmount: number;
}

/** A quote-less 7-day order on the 3,000 m package: 4,500.00 NPR, placed through POST /orders. */
export async function placeOrder(
  server: Pick<RunningServer, 'orm'>,
  client: ApiClient,
  partner: TestPartner,
  extra: Record<string, unknown> = {},
): Promise<PlacedOrder> {
  const touristId = await newTraveller(server, partner.companyId);
  const response = await client.op(
    'createOrders',
    'POST',
    ORDERS,
    {
      touristId,
      ctgId: CTGS.standard3000,
      customRouteName: 'Kathmandu valley rim walk',
      departureDate: departure,
      ...extra,
    },
    { token: partner.token },
  );
  if (response.status !== 201) throw new Error(`order failed: ${JSON.stringify(response.body)}`);
  const { orderId, orderRef, orderNumber, pricing } = response.body.data;
  return { orderId, orderRef, orderNumber, totalAmount: pricing.totalAmount };
}

/** A group of `size` such orders through POST /orders with an array body. */
export async function placeGroup(
  server: RunningServer,
  client: ApiClient,
  partner: TestPartner,
  size: number,
): Promise<{ groupRef: string; orders: PlacedOrder[] }> {
  const items = [];
  for (let i = 0; i < size; i++) {
    items.push({
      touristId: await newTraveller(server, partner.companyId),
      ctgId: CTGS.standard3000,
      customRouteName: 'Kathmandu valley rim walk',
      departureDate: departure,
    });
  }
  const response = await client.op('createOrders', 'POST', ORDERS, items, { token: partner.token });
  if (response.status !== 201) throw new Error(`group failed: ${JSON.stringify(response.body)}`);
  const data = response.body.data;
  return {
    groupRef: data.groupRef,
    orders: data.orders.map((order: WireJson) => ({
      orderId: order.orderId,
      orderRef: order.orderRef,
      orderNumber: order.orderNumber,
      totalAmount: order.pricing.totalAmount,
    })),
  };
}

export function pay(
  client: ApiClient,
  partner: TestPartner,
  identifier: string,
  body: unknown,
  key: string = randomUUID(),
): Promise<ApiResponse> {
  return client.op('payOrder', 'POST', payPath(identifier), body, {
    token: partner.token,
    headers: { 'idempotency-key': key },
  });
}

export function paymentStatus(client: ApiClient, partner: TestPartner, identifier: string): Promise<ApiResponse> {
  return client.op('getPaymentStatus', 'GET', statusPath(identifier), undefined, { token: partner.token });
}

export interface CheckoutResult {
  /** Status of the checkout form post: 303 when the gateway decided, 4xx when it refused. */
  status: number;
  /** The signed callback the gateway sends the browser to, when it decided. */
  callbackUrl?: URL;
  html: string;
}

/** Submits the hosted checkout form like a browser without JavaScript would, without following the redirect. */
export async function submitCheckout(paymentUrl: string, form: Record<string, string>): Promise<CheckoutResult> {
  const response = await fetch(paymentUrl, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' });
  const location = response.headers.get('location');
  return {
    status: response.status,
    callbackUrl: location ? new URL(location) : undefined,
    html: await response.text(),
  };
}

/** Delivers a callback URL the gateway produced, as the customer's browser would; checks the answer against the spec. */
export async function deliverCallback(client: ApiClient, callbackUrl: URL): Promise<ApiResponse> {
  const query = Object.fromEntries(callbackUrl.searchParams.entries());
  // Straight to the server under mock:validate: Prism would follow the 303 to the returnUrl.
  return client.op('handlePaymentCallback', 'GET', CALLBACK, undefined, { query, direct: true });
}

/** A callback signed with the gateway's real secret, for reports a test makes up. */
export function signedCallbackQuery(
  server: RunningServer,
  gateway: GatewayName,
  report: GatewayReport,
): Record<string, string> {
  const adapter = server.gateways.sandbox.get(gateway);
  if (!adapter) throw new Error(`no sandbox ${gateway}`);
  return { gateway, ...signCallback(report, adapter.secretForSigning()) };
}

export const APPROVE_CARD = { action: 'pay', cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };
export const DECLINE_CARD = { action: 'pay', cardNumber: '4000 0000 0000 0002', expiry: '12/30', cvc: '123' };
export const NO_FUNDS_CARD = { action: 'pay', cardNumber: '4000 0000 0000 9995', expiry: '12/30', cvc: '123' };
export const APPROVE_WALLET = { action: 'pay', walletId: '9800000001', pin: '1234' };
export const DECLINE_WALLET = { action: 'pay', walletId: '9800000002', pin: '1234' };

/** What money did: how many times each order was marked PAID and what every attempt of it says. */
export async function ledgerOf(server: RunningServer, orderId: string) {
  const em = server.orm.em.fork();
  const order = await em.findOneOrFail(Order, orderId);
  const attempts = await em.find(PaymentAttempt, { orders: { order: orderId } }, { orderBy: { createdAt: 'asc' } });
  return {
    orderStatus: order.status,
    paidAt: order.paidAt?.toISOString() ?? null,
    attempts: attempts.map((a) => ({
      paymentRef: a.paymentRef,
      status: a.status,
      refundAmount: a.refundAmount,
      closedReason: a.closedReason ?? null,
      gatewayTransactionId: a.gatewayTransactionId ?? null,
    })),
    successes: attempts.filter((a) => a.status === 'SUCCESS' && a.refundAmount < a.amount).length,
  };
}

export { OrderStatus };

/**
 * The sandbox card gateway decides no refund by itself (decision record 0090): the test decides
 * it through the sandbox helper, as a partner's CI does. The answer is checked against the spec.
 */
export async function decideSandboxRefund(
  client: ApiClient,
  partner: TestPartner,
  refundRef: string,
  outcome: 'SUCCEEDED' | 'FAILED' = 'SUCCEEDED',
): Promise<ApiResponse> {
  const answer = await client.op(
    'setSandboxRefundOutcome',
    'POST',
    `/api/external/v1/sandbox/refunds/${encodeURIComponent(refundRef)}/outcome`,
    { outcome },
    { token: partner.token },
  );
  if (answer.status !== 200) throw new Error(`sandbox refund ${refundRef} not decided: ${JSON.stringify(answer.body)}`);
  return answer;
}

/** Decides, through the sandbox helper, every PENDING refund of an order the partner placed (see decideSandboxRefund). */
export async function decideSandboxRefundsOf(
  client: ApiClient,
  partner: TestPartner,
  orderRef: string,
  outcome: 'SUCCEEDED' | 'FAILED' = 'SUCCEEDED',
): Promise<void> {
  const listed = await client.op(
    'listRefunds',
    'GET',
    `/api/external/v1/refunds?orderRef=${encodeURIComponent(orderRef)}&status=PENDING`,
    undefined,
    { token: partner.token },
  );
  if (listed.status !== 200) throw new Error(`refunds of ${orderRef} not listed: ${JSON.stringify(listed.body)}`);
  for (const refund of listed.body.data.content as Array<{ refundRef: string }>)
    await decideSandboxRefund(client, partner, refund.refundRef, outcome);
}

/** An order placed and paid through the sandbox payment helper (`CAPTURED`), with no checkout page. */
export async function paidThroughSandbox(
  server: Pick<RunningServer, 'orm'>,
  client: ApiClient,
  owner: TestPartner,
  gateway: GatewayName = 'card_gateway',
  extra: Record<string, unknown> = {},
): Promise<{ order: PlacedOrder; paymentRef: string }> {
  const order = await placeOrder(server, client, owner, extra);
  const started = await pay(client, owner, order.orderRef, { gateway, returnUrl: RETURN_URL });
  const paymentRef = started.body.data.paymentRef as string;
  await capturedInSandbox(client, owner, paymentRef);
  return { order, paymentRef };
}

/** The sandbox payment helper's `CAPTURED` for an attempt the owner started (a payment or a top-up). */
export async function capturedInSandbox(client: ApiClient, owner: TestPartner, paymentRef: string): Promise<void> {
  const decided = await client.op(
    'setSandboxPaymentOutcome',
    'POST',
    `/api/external/v1/sandbox/payments/${paymentRef}/outcome`,
    { outcome: 'CAPTURED' },
    { token: owner.token },
  );
  if (decided.status !== 200) throw new Error(`sandbox capture failed: ${JSON.stringify(decided.body)}`);
}

/** The owner's cancellation of `orderRef` (reason TRIP_CANCELLED) under a new key, as answered. */
export function cancelledByOwner(client: ApiClient, owner: TestPartner, orderRef: string): Promise<ApiResponse> {
  return client.op(
    'cancelOrder',
    'POST',
    `${ORDERS}/${orderRef}/cancellation`,
    { reason: 'TRIP_CANCELLED' },
    { token: owner.token, headers: { 'idempotency-key': randomUUID() } },
  );
}
