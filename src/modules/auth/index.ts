export * from './authentication';
export * from './entities/access-token';
export * from './entities/credential';
export * from './handlers';
export * from './rules/credential-secret';
export * from './token-check-cache';
export * from './token-check-listener';
export * from './token-purge-job';
