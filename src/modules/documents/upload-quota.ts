import type { RequestScope } from '../../kernel/http/request-scope';
import { companyBucket } from '../../kernel/rate-limits/operation-limits';

/** The counter of stored document bytes; uploadDocument's policy refuses a company whose count is spent. */
export const UPLOAD_BYTES_COUNTER = 'upload-bytes';

/**
 * Adds a stored document's bytes to its company's byte quota. The size is known only once the
 * bytes are in, so uploads in flight when the quota runs out still land: the quota can be passed
 * by at most one file (MAX_UPLOAD_BYTES) per concurrent upload, and the next upload is refused.
 */
export async function countUploadedBytes(scope: RequestScope, bytes: number): Promise<void> {
  const { config, rateLimiter } = scope.services;
  const companyId = scope.principal?.companyId;
  if (companyId === undefined) return;
  await rateLimiter.hit(scope.em, [
    companyBucket(UPLOAD_BYTES_COUNTER, companyId, config.rateLimits.uploadBytesPerCompany, bytes),
  ]);
}
