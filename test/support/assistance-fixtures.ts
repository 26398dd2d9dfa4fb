import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../../src/server';
import type { ApiClient, ApiResponse } from './http-client';
import { ORDERS } from './order-fixtures';
import type { TestPartner } from './partners';
import { APPROVE_CARD, deliverCallback, pay, placeOrder, submitCheckout, type PlacedOrder } from './payment-fixtures';

export const CASES = '/api/external/v1/assistance-cases';
export const openPath = (orderRef: string) => `${ORDERS}/${encodeURIComponent(orderRef)}/assistance-cases`;

/** A guide's report of suspected HACE at Gorak Shep, 5,164 m (the contract's example). */
export function caseRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    category: 'ALTITUDE_SICKNESS',
    requestedService: 'HELICOPTER_EVACUATION',
    location: { latitude: 27.9881, longitude: 86.925, placeName: 'Gorak Shep lodge, Everest Base Camp trek' },
    altitudeMeters: 2900,
    summary: 'Severe headache and vomiting since last night; suspected HACE. Cannot walk down.',
    reporter: { name: 'Pemba Sherpa', phone: '+977 9841 234567', role: 'GUIDE' },
    ...overrides,
  };
}

/** An order placed by `partner` (listing `extra`'s agencies) and paid by card through the sandbox checkout. */
export async function paidOrder(
  server: Pick<RunningServer, 'orm'>,
  client: ApiClient,
  partner: TestPartner,
  extra: Record<string, unknown> = {},
): Promise<PlacedOrder> {
  const order = await placeOrder(server, client, partner, extra);
  const started = (await pay(client, partner, order.orderRef, { gateway: 'card_gateway' })).body.data;
  const checkout = await submitCheckout(started.paymentUrl, APPROVE_CARD);
  const callback = await deliverCallback(client, checkout.callbackUrl!);
  if (callback.status >= 400) throw new Error(`payment callback failed: ${JSON.stringify(callback.body)}`);
  return order;
}

export function openCase(
  client: ApiClient,
  caller: TestPartner,
  orderRef: string,
  body: unknown = caseRequest(),
  key: string = randomUUID(),
): Promise<ApiResponse> {
  return client.op('openAssistanceCase', 'POST', openPath(orderRef), body, {
    token: caller.token,
    headers: { 'idempotency-key': key },
  });
}

export function readCase(client: ApiClient, caller: TestPartner, caseRef: string): Promise<ApiResponse> {
  return client.op('getAssistanceCase', 'GET', `${CASES}/${encodeURIComponent(caseRef)}`, undefined, {
    token: caller.token,
  });
}

export function updateCase(
  client: ApiClient,
  caller: TestPartner,
  caseRef: string,
  body: unknown,
): Promise<ApiResponse> {
  return client.op('addAssistanceCaseUpdate', 'POST', `${CASES}/${encodeURIComponent(caseRef)}/updates`, body, {
    token: caller.token,
  });
}

export function withdrawCase(
  client: ApiClient,
  caller: TestPartner,
  caseRef: string,
  reason = 'False alarm; the traveller recovered after a rest day.',
): Promise<ApiResponse> {
  return client.op(
    'withdrawAssistanceCase',
    'POST',
    `${CASES}/${encodeURIComponent(caseRef)}/withdrawal`,
    { reason },
    { token: caller.token },
  );
}

export function listCases(client: ApiClient, caller: TestPartner, query = ''): Promise<ApiResponse> {
  return client.op('listAssistanceCases', 'GET', `${CASES}${query}`, undefined, { token: caller.token });
}
