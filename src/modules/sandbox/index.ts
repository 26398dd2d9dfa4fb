/**
 * The sandbox helpers' module (decision record 0083): the per-company test clock, the
 * events a partner sends itself, and the helpers' presence only where sandbox payments are on.
 * The payment and refund outcomes live with the payments and refunds they move; the clock's
 * store and the request's business day are the kernel's (every module's rules read them).
 */
export { sandboxHandlers, sandboxPolicies } from './handlers';
export { documentWithoutSandbox, sandboxOperationIds } from './sandbox-presence';
