import type { EntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import type { Request } from 'express';
import type { Context } from 'openapi-backend';
import type { Config } from '../config';
import type { Metrics } from '../http/metrics';
import type { Logger } from '../logger';
import type { RateLimiter } from '../services/rate-limiter';
import type { Catalogue } from '../services/catalogue';
import type { CertificateFonts } from '../certificate/certificate-fonts';
import type { Principal } from '../services/authentication';
import type { PaymentDeps } from '../services/payment-deps';
import type { DocumentStorage } from '../storage/document-storage';
import { unauthorized } from '../http/app-error';

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

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
  /** A body streamed as it is produced (a PDF), instead of `body`; `contentType` says what it is. */
  stream?: Readable;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OperationHandler = (c: Context<any, any, any, any, any>, scope: RequestScope) => Promise<OperationResult>;
export type OperationHandlers = Record<string, OperationHandler>;

/** Handlers behind the bearer security requirement are only reached with a principal. */
export function callerOf(scope: RequestScope): Principal {
  if (!scope.principal) throw unauthorized('Missing access token');
  return scope.principal;
}
