import fs from 'node:fs';
import path from 'node:path';
import type { Document } from 'openapi-backend';
import { isRecord } from '../narrow';

/** The bundled contract (generated/openapi.json), found from src/ and from dist/src/ alike. */
export function specDocumentPath(): string {
  for (const candidate of [
    path.resolve(__dirname, '../../../generated/openapi.json'),
    path.resolve(__dirname, '../../../../generated/openapi.json'),
  ]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('generated/openapi.json is missing: run `npm run generate`');
}

export function loadSpecDocument(): Document {
  const parsed: unknown = JSON.parse(fs.readFileSync(specDocumentPath(), 'utf8'));
  if (!isOpenApiDocument(parsed))
    throw new Error(`${specDocumentPath()} is not an OpenAPI 3.1 document: run \`npm run generate\``);
  return parsed;
}

/** Our own generated file, checked in CI: its version and paths are enough to know it for one. */
function isOpenApiDocument(value: unknown): value is Document {
  return (
    isRecord(value) &&
    typeof value.openapi === 'string' &&
    value.openapi.startsWith('3.1') &&
    isRecord(value.info) &&
    isRecord(value.paths)
  );
}

/**
 * The docs page built by `npm run docs` for this server: the whole contract on a sandbox
 * (docs.html), the document a live server serves on a live one (docs-live.html: no sandbox helper,
 * no demo credential; decision record 0093).
 */
export function docsPagePath(sandbox: boolean): string | undefined {
  const file = path.join(path.dirname(specDocumentPath()), sandbox ? 'docs.html' : 'docs-live.html');
  return fs.existsSync(file) ? file : undefined;
}
