/** The auth module's face: bearer checks, the token handlers and the credential secrets the CLI issues; only what the composition, the CLI and other modules use. */
export { authenticate } from './authentication';
export { createCredential, markCredentialRevoked } from './credentials';
export { authHandlers } from './handlers';
export { hashChosenSecret, issueClientSecret, verifySecret } from './rules/credential-secret';
export { TokenCheckCache } from './token-check-cache';
export { type TokenCheckListener, listenForTokenCheckChanges } from './token-check-listener';
export { type TokenPurgeJob, startTokenPurgeJob } from './token-purge-job';
