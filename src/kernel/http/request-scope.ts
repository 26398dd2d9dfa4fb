import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import type { Config } from '../../config';
import type { ContractRequest, ContractResponse, OperationId } from './contract';
import type { Metrics } from '../metrics/metrics';
import type { Logger } from '../logging/logger';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import type { Catalogue } from '../../modules/catalogue';
import type { CertificateFonts } from '../../modules/certificates';
import type { Principal } from '../../modules/auth';
import type { PaymentDeps } from '../../modules/payments';
import type { DocumentStorage } from '../../modules/documents';
import { unauthenticated } from '../errors';

/** Long-lived collaborators the handlers share; built once in createApp. */
export interface Services {
  config: Config;
  catalogue: Catalogue;
  logger: Logger;
  payments: PaymentDeps;
  storage: DocumentStorage;
  metrics: Metrics;
  rateLimiter: RateLimiter;
  /** Parsed once at start and shared by every certificate. */
  certificateFonts: CertificateFonts;
  isDatabaseUp(): Promise<boolean>;
}

/** What one request's handler gets: its own entity manager (identity map) and the caller. */
export interface RequestScope {
  em: EntityManager;
  services: Services;
  req: Request;
  principal?: Principal;
}

/** One operation's handler: the validated request in its generated types, one of its documented answers out. */
export type ContractHandler<Id extends OperationId> = (request: ContractRequest<Id>, scope: RequestScope) => Promise<ContractResponse<Id>>;

/**
 * The spec as an interface the code implements in full: one handler per operationId. The map in
 * operations/index.ts `satisfies` it, so a missing, misspelt or extra handler is a compile error.
 */
export type ContractHandlers = { [Id in OperationId]: ContractHandler<Id> };

/** What a tag's module implements: some of the operations, none that the spec does not have. */
export type TagHandlers = Partial<ContractHandlers>;

/** Handlers behind the bearer security requirement are only reached with a principal. */
export function callerOf(scope: RequestScope): Principal {
  if (!scope.principal) throw unauthenticated('Missing access token');
  return scope.principal;
}
