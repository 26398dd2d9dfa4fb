import type { Document } from 'openapi-backend';
import { isRecord } from '../../kernel/narrow';

/**
 * The contract says `returnUrl` is HTTPS (`pattern: '^https://'` on PayRequest), so partners'
 * generated validators enforce it too. The operator's internal test environment takes plain
 * http (ALLOW_HTTP_RETURN_URL, refused in production): there the document the server validates
 * with and serves at /api/external/v1/openapi.json drops that pattern, so it says what this
 * server accepts. The server's own rule (rules/return-url) still decides; the schema only
 * states it.
 */
export function documentAllowingHttpReturnUrl(document: Document): Document {
  const relaxed = structuredClone(document);
  const schemas = relaxed.components?.schemas;
  const payRequest = isRecord(schemas) ? schemas.PayRequest : undefined;
  const properties = isRecord(payRequest) ? payRequest.properties : undefined;
  const returnUrl = isRecord(properties) ? properties.returnUrl : undefined;
  if (!isRecord(returnUrl) || returnUrl.pattern !== '^https://') {
    throw new Error(
      'PayRequest.returnUrl in the OpenAPI document has no https pattern to relax: ALLOW_HTTP_RETURN_URL cannot apply',
    );
  }
  delete returnUrl.pattern;
  delete returnUrl['x-pattern-message'];
  return relaxed;
}
