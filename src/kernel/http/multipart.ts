import type { Context } from 'openapi-backend';
import { isRecord } from '../narrow';

export const isMultipart = (contentType: string | undefined): boolean =>
  /^multipart\/form-data\b/i.test(contentType ?? '');

/**
 * openapi-backend would validate a multipart body it never saw and reject every valid upload.
 * Such requests skip its body validation: the upload handler streams and checks the parts itself
 * after authentication, so no byte is stored for an unauthenticated caller.
 */
export function validatesBeforeHandler(c: Context): boolean {
  const declaresMultipart = Boolean(
    c.operation?.requestBody &&
    'content' in c.operation.requestBody &&
    c.operation.requestBody.content['multipart/form-data'],
  );
  const headers: unknown = c.request.headers;
  const header = isRecord(headers) ? headers['content-type'] : undefined;
  return !(declaresMultipart && isMultipart(typeof header === 'string' ? header : undefined));
}
