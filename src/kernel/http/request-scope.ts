import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import type { ContractRequest, ContractResponse, OperationId } from './contract';
import type { Metrics } from '../metrics/metrics';
import type { Logger } from '../logging/logger';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import { unauthenticated } from '../errors';
import type { TestClocks } from '../test-clock';
import type { CsvExports } from '../db/csv-exports';

/**
 * Long-lived collaborators the handlers share, built once at start (server.ts). The kernel names
 * its own; a module that owns one adds it here by declaration merging in its index.ts
 * (`declare module '../../kernel/http/request-scope' { interface Services { catalogue: Catalogue } }`),
 * and the composition must then provide it: leaving one out is a compile error in server.ts.
 * The kernel itself never reads a module's collaborator.
 */
export interface Services {
  logger: Logger;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  isDatabaseUp(): Promise<boolean>;
  /** Whether GET /metrics answers on the partner-facing listener, and the token it then wants. */
  metricsExposure: { onApiListener: boolean; token?: string };
  /** The sandbox companies' test clocks (read only in sandbox mode). */
  testClocks: TestClocks;
  /** Every streamed CSV export's one path: its own connections, the per-company limit (db/csv-exports.ts). */
  csvExports: CsvExports;
}

/**
 * Who is calling, resolved from the bearer token on every request. The kernel counts rate limits
 * per company; the auth module adds what else a token tells (by declaration merging).
 */
export interface Principal {
  companyId: string;
}

/** What one request's handler gets: its own entity manager (identity map) and the caller. */
export interface RequestScope {
  em: EntityManager;
  services: Services;
  req: Request;
  principal?: Principal;
}

/** One operation's handler: the validated request in its generated types, one of its documented answers out. */
export type ContractHandler<Id extends OperationId> = (
  request: ContractRequest<Id>,
  scope: RequestScope,
) => Promise<ContractResponse<Id>>;

/**
 * The spec as an interface the code implements in full: one handler per operationId. The map in
 * src/app.ts `satisfies` it, so a missing, misspelt or extra handler is a compile error.
 */
export type ContractHandlers = { [Id in OperationId]: ContractHandler<Id> };

/** What a tag's module implements: some of the operations, none that the spec does not have. */
export type TagHandlers = Partial<ContractHandlers>;

/** Handlers behind the bearer security requirement are only reached with a principal. */
export function callerOf(scope: RequestScope): Principal {
  if (!scope.principal) throw unauthenticated('Missing access token').coded('TOKEN_MISSING');
  return scope.principal;
}
