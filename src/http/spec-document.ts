import fs from 'node:fs';
import path from 'node:path';
import type { Document } from 'openapi-backend';

/** The bundled contract (generated/openapi.json), found from src/ and from dist/src/ alike. */
export function specDocumentPath(): string {
  for (const candidate of [path.resolve(__dirname, '../../generated/openapi.json'), path.resolve(__dirname, '../../../generated/openapi.json')]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('generated/openapi.json is missing: run `npm run generate`');
}

export function loadSpecDocument(): Document {
  // Our own generated file, written by `npm run generate` and checked in CI; no shape check here.
  const document: Document = JSON.parse(fs.readFileSync(specDocumentPath(), 'utf8'));
  return document;
}

export function docsPagePath(): string | undefined {
  const file = path.join(path.dirname(specDocumentPath()), 'docs.html');
  return fs.existsSync(file) ? file : undefined;
}
