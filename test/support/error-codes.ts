import fs from 'node:fs';

const documented = new Set<string>(
  JSON.parse(fs.readFileSync('generated/openapi.json', 'utf8')).components.schemas.ErrorCode.enum,
);

/**
 * Every error answer the suite sees must carry a code the contract documents (ErrorCode): a
 * partner branches on it. Each one checked is tallied for the run's closing summary
 * (summary-reporter.js). Only our JSON answers count: Prism's own refusals (problem+json) are not
 * ours to code.
 */
export function expectDocumentedErrorCode(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  if (
    status < 400 ||
    !(contentType ?? '').startsWith('application/json') ||
    typeof body !== 'object' ||
    body === null ||
    !('message' in body)
  )
    return;
  const code = (body as { code?: unknown }).code;
  const known = typeof code === 'string' && documented.has(code);
  const tally = process.env.ERROR_CODE_TALLY;
  if (tally) fs.appendFileSync(tally, `${status} ${known ? code : 'UNDOCUMENTED'}\n`);
  if (!known)
    throw new Error(`${method} ${path} answered ${status} without a documented error code: ${JSON.stringify(body)}`);
}
