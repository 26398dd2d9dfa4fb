import type { Document } from 'openapi-backend';
import { isRecord } from '../../kernel/narrow';

/** The contract's tag of the sandbox helpers. */
const SANDBOX_TAG = 'Sandbox';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The operationIds the contract tags Sandbox. */
export function sandboxOperationIds(document: Document): Set<string> {
  const ids = new Set<string>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation: unknown = isRecord(item) ? item[method] : undefined;
      if (
        isRecord(operation) &&
        Array.isArray(operation.tags) &&
        operation.tags.includes(SANDBOX_TAG) &&
        typeof operation.operationId === 'string'
      )
        ids.add(operation.operationId);
    }
  }
  return ids;
}

/**
 * The contract a server without sandbox payments serves and routes by: the sandbox helpers'
 * paths are not in it, so they answer 404 like any unknown path (before the bearer check, so
 * nobody learns they exist) and the published document does not list them.
 */
export function documentWithoutSandbox(document: Document): Document {
  const served = structuredClone(document);
  const paths = served.paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    const operations = METHODS.flatMap((method) => {
      const operation: unknown = item[method];
      return isRecord(operation) ? [operation] : [];
    });
    if (
      operations.length > 0 &&
      operations.every((operation) => Array.isArray(operation.tags) && operation.tags.includes(SANDBOX_TAG))
    )
      delete paths[path];
  }
  served.tags = (served.tags ?? []).filter((tag) => tag.name !== SANDBOX_TAG);
  const groups: unknown = (served as Record<string, unknown>)['x-tagGroups'];
  if (Array.isArray(groups))
    for (const group of groups)
      if (isRecord(group) && Array.isArray(group.tags))
        group.tags = group.tags.filter((tag: unknown) => tag !== SANDBOX_TAG);
  if (typeof served.info.description === 'string')
    served.info.description = guideWithoutSandbox(served.info.description);
  return served;
}

/**
 * The guide's sections about the sandbox (its demo credentials, test cards and helpers): a live
 * server's document and docs page leave them out, so a production page publishes no demo secret
 * and no helper it does not answer (decision record 0093). scripts/docs.mjs builds the live page
 * with the same headings; test/sandbox/sandbox-presence.test.ts holds both to it.
 */
export const SANDBOX_GUIDE_SECTIONS = ['Sandbox', 'Testing your integration'];

function guideWithoutSandbox(guide: string): string {
  return guide
    .split(/^(?=## )/m)
    .filter((section) => !SANDBOX_GUIDE_SECTIONS.some((heading) => section.startsWith(`## ${heading}\n`)))
    .join('');
}
