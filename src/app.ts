import type { Express, Router } from 'express';
import type { Document, OpenAPIBackend } from 'openapi-backend';
import type { RateLimitConfig } from './kernel/rate-limits/settings';
import type { Orm } from './kernel/db/orm';
import { buildApi as buildKernelApi } from './kernel/http/api';
import type { StreamDeadlines } from './kernel/http/stream-deadline';
import { healthHandlers } from './kernel/http/health-handlers';
import { API_PREFIX, httpStack as kernelHttpStack } from './kernel/http/http-stack';
import type { OperationPolicies } from './kernel/http/operation-policy';
import type { ContractHandlers, Services } from './kernel/http/request-scope';
import type { ResponseCheckConfig } from './kernel/http/response-check';
import { assistanceHandlers, assistancePolicies } from './modules/assistance';
import { authenticate, authHandlers, type TokenCheckCache } from './modules/auth';
import { cataloguePolicies, referenceHandlers } from './modules/catalogue';
import { certificateHandlers, certificatePolicies } from './modules/certificates';
import { claimHandlers, claimPolicies } from './modules/claims';
import { commissionHandlers, commissionPolicies } from './modules/commissions';
import { documentHandlers, documentPolicies } from './modules/documents';
import { orderHandlers, orderPolicies } from './modules/orders';
import { partnerHandlers } from './modules/partners';
import { paymentHandlers, paymentPolicies } from './modules/payments';
import { promoHandlers, promoPolicies } from './modules/promos';
import { refundHandlers } from './modules/refunds';
import { documentWithoutSandbox, sandboxHandlers, sandboxOperationIds, sandboxPolicies } from './modules/sandbox';
import type { TestClocks } from './kernel/test-clock';
import { travellerHandlers, travellerPolicies } from './modules/travellers';
import { webhookHandlers, webhookPolicies } from './modules/webhooks';

export { API_PREFIX };

/** Every implemented operation, keyed by operationId, module by module. */
export const operationHandlers = {
  ...healthHandlers,
  ...authHandlers,
  ...partnerHandlers,
  ...referenceHandlers,
  ...orderHandlers,
  ...paymentHandlers,
  ...refundHandlers,
  ...documentHandlers,
  ...travellerHandlers,
  ...promoHandlers,
  ...certificateHandlers,
  ...webhookHandlers,
  ...assistanceHandlers,
  ...claimHandlers,
  ...commissionHandlers,
  ...sandboxHandlers,
} satisfies ContractHandlers;

/** What the kernel does around each operation (rate limits, outcome metrics, malformed-request answers), as each module declares it. */
export const operationPolicies = {
  ...cataloguePolicies,
  ...orderPolicies,
  ...paymentPolicies,
  ...documentPolicies,
  ...travellerPolicies,
  ...promoPolicies,
  ...certificatePolicies,
  ...webhookPolicies,
  ...assistancePolicies,
  ...claimPolicies,
  ...commissionPolicies,
  ...sandboxPolicies,
} satisfies OperationPolicies;

export interface AppDeps {
  orm: Orm;
  services: Services;
  document: Document;
  /** Pages served beside the API, such as the sandbox gateways' hosted checkout. */
  pages?: Router[];
  /** Bearer checks kept while the process listens for revocations; without it every check asks the database. */
  tokenChecks?: TokenCheckCache;
}

/** Express in front, openapi-backend for routing and validation from the spec, the modules' handlers by operationId. */
export async function createApp({ orm, services, document, pages = [], tokenChecks }: AppDeps): Promise<Express> {
  const { http } = services.config;
  const streamDeadlines = { stallMs: http.streamStallMs, totalMs: http.streamDeadlineMs };
  // The sandbox helpers and the test clock exist only with sandbox payments (decision record 0083).
  const sandbox = services.config.payments.mode === 'sandbox';
  const served = sandbox ? document : documentWithoutSandbox(document);
  const api = await buildApi(served, operationHandlers, {
    responseChecks: services.config,
    tokenChecks,
    rateLimits: services.config.rateLimits,
    streamDeadlines,
    testClocks: sandbox ? services.testClocks : undefined,
    withdrawn: sandbox ? undefined : sandboxOperationIds(document),
  });
  return httpStack({ orm, services, document: served, pages, api });
}

export interface ApiOptions {
  /** Outside production: every answer checked against the document (see kernel/http/response-check). */
  responseChecks?: ResponseCheckConfig;
  tokenChecks?: TokenCheckCache;
  rateLimits?: RateLimitConfig;
  streamDeadlines?: StreamDeadlines;
  /** Sandbox payments are on: each caller's requests run on its company's test clock, when set. */
  testClocks?: TestClocks;
  /** Operations the document was stripped of (the sandbox helpers outside sandbox mode). */
  withdrawn?: ReadonlySet<string>;
}

/** The kernel's API over `handlers` with the service's bearer check and the modules' policies. */
export function buildApi(
  document: Document,
  handlers: ContractHandlers,
  { responseChecks, tokenChecks, rateLimits, streamDeadlines, testClocks, withdrawn }: ApiOptions = {},
): Promise<OpenAPIBackend> {
  return buildKernelApi(document, handlers, {
    authenticate: (em, token) => authenticate(em, token, tokenChecks),
    responseChecks,
    policies: operationPolicies,
    rateLimits,
    streamDeadlines,
    testClockOf: testClocks ? (em, principal, clock) => testClocks.of(em, principal.companyId, clock) : undefined,
    withdrawn,
  });
}

const policies: OperationPolicies = operationPolicies;
/** The outcome counter of each operation whose policy names one, looked up once per answer. */
const outcomeCounters = new Map(
  Object.entries(policies).flatMap(([operationId, policy]) =>
    policy?.outcomes ? [[operationId, policy.outcomes] as const] : [],
  ),
);

/** The kernel's HTTP stack with the service's settings: proxies, body limit, the policies' outcome counters. */
export function httpStack({
  orm,
  services,
  document,
  pages = [],
  api,
}: Omit<AppDeps, 'tokenChecks'> & { api: OpenAPIBackend }): Express {
  const { trustProxy, maxJsonBodyBytes, http } = services.config;
  return kernelHttpStack({
    orm,
    services,
    document,
    pages,
    api,
    trustProxy,
    maxJsonBodyBytes,
    jsonBodyTimeoutMs: http.jsonBodyTimeoutMs,
    outcomeOf: (operationId) => outcomeCounters.get(operationId),
  });
}
