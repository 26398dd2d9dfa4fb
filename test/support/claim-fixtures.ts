import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../../src/server';
import { addDays, kathmanduToday } from '../../src/kernel/business-date';
import { Order } from '../../src/modules/orders/entities/order';
import type { ApiClient, ApiResponse } from './http-client';
import { ORDERS } from './order-fixtures';
import type { TestPartner } from './partners';

export const CLAIMS = '/api/external/v1/claims';
export const filePath = (orderRef: string) => `${ORDERS}/${encodeURIComponent(orderRef)}/claims`;
export const claimPath = (claimRef: string, tail = '') => `${CLAIMS}/${encodeURIComponent(claimRef)}${tail}`;

/** The smallest claim: one USD invoice of the Pheriche aid post, the incident today (Nepal). */
export function claimRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    claimType: 'MEDICAL_EXPENSES',
    incidentDate: kathmanduToday(),
    incidentDescription: 'Acute mountain sickness, treated at the Pheriche aid post',
    payee: { type: 'TRAVELLER' },
    items: [
      {
        description: 'Treatment and oxygen',
        amount: 420,
        currency: 'USD',
        invoiceNumber: `PAP-${randomUUID().slice(0, 8)}`,
        providerName: 'Pheriche Aid Post',
      },
    ],
    ...overrides,
  };
}

/** Moves a paid order's cover window to `startOffset` days from today (Nepal), for `length` days. */
export async function coverAround(
  server: Pick<RunningServer, 'orm'>,
  orderId: string,
  startOffset = -2,
  length = 7,
): Promise<void> {
  const start = addDays(kathmanduToday(), startOffset);
  await server.orm.em
    .fork()
    .nativeUpdate(Order, { id: orderId }, { coverageStartDate: start, coverageEndDate: addDays(start, length - 1) });
}

export function fileClaim(
  client: ApiClient,
  caller: TestPartner,
  orderRef: string,
  body: unknown = claimRequest(),
  key: string = randomUUID(),
): Promise<ApiResponse> {
  return client.op('fileClaim', 'POST', filePath(orderRef), body, {
    token: caller.token,
    headers: { 'idempotency-key': key },
  });
}

export const readClaim = (client: ApiClient, caller: TestPartner, claimRef: string) =>
  client.op('getClaim', 'GET', claimPath(claimRef), undefined, { token: caller.token });

export const listClaims = (client: ApiClient, caller: TestPartner, query = '') =>
  client.op('listClaims', 'GET', `${CLAIMS}${query}`, undefined, { token: caller.token });

export const answerClaim = (client: ApiClient, caller: TestPartner, claimRef: string, body: unknown) =>
  client.op('answerClaimInformationRequest', 'POST', claimPath(claimRef, '/information'), body, {
    token: caller.token,
  });

export const withdrawClaim = (
  client: ApiClient,
  caller: TestPartner,
  claimRef: string,
  reason = 'Paid by another insurer',
) => client.op('withdrawClaim', 'POST', claimPath(claimRef, '/withdrawal'), { reason }, { token: caller.token });

export const decideClaim = (client: ApiClient, caller: TestPartner, claimRef: string, body: unknown) =>
  client.op(
    'setSandboxClaimDecision',
    'POST',
    `/api/external/v1/sandbox/claims/${encodeURIComponent(claimRef)}/decision`,
    body,
    { token: caller.token },
  );
