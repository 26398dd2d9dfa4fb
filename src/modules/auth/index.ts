import { Credential } from './entities/credential';
import { AccessToken } from './entities/access-token';
export * from './authentication';
export * from './entities/access-token';
export * from './entities/credential';
export * from './handlers';
export * from './rules/credential-secret';
export * from './token-check-cache';
export * from './token-check-listener';
export * from './token-purge-job';

/** The ORM entities this module owns (the service's list is their union, in src/database.ts). */
export const AUTH_ENTITIES = [Credential, AccessToken];
