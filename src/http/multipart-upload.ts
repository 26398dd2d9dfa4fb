import busboy from 'busboy';
import type { Request } from 'express';
import type { Context } from 'openapi-backend';
import type { Readable } from 'node:stream';
import { bytesToJudge, SNIFF_BYTES, sniffContentType } from '../domain/document-content';
import type { DraftUpload } from '../services/documents';
import { ContentProbe } from '../storage/content-probe';
import type { DocumentStorage } from '../storage/document-storage';
import { DomainError, invalid, uploadRefused } from '../domain/errors';

/** Room for part headers and the documentType field on top of the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const FIELD_NAMES = ['file', 'documentType'];

export const isMultipart = (contentType: string | undefined): boolean => /^multipart\/form-data\b/i.test(contentType ?? '');

/**
 * openapi-backend would validate a multipart body it never saw and reject every valid upload.
 * Such requests skip its body validation: the upload handler streams and checks the parts itself
 * after authentication, so no byte is stored for an unauthenticated caller.
 */
export function validatesBeforeHandler(c: Context): boolean {
  const declaresMultipart = Boolean(c.operation?.requestBody && 'content' in c.operation.requestBody && c.operation.requestBody.content['multipart/form-data']);
  const header = c.request.headers['content-type'];
  return !(declaresMultipart && isMultipart(Array.isArray(header) ? header[0] : header));
}

const malformed = (detail: string) => invalid(`Malformed multipart/form-data request: ${detail}`);

/**
 * Parses a POST /documents body with busboy, streaming the `file` part straight into storage
 * while hashing it and keeping the bytes it is judged on (an image's header; a PDF whole, at most
 * `maxFileBytes`, since active content can sit anywhere in it). Resolves once the whole
 * request is read; on any failure rejects and leaves nothing in storage.
 */
export function receiveDocumentUpload(req: Request, storage: DocumentStorage, maxFileBytes: number): Promise<DraftUpload> {
  const contentType = req.headers['content-type'];
  if (!isMultipart(contentType)) {
    return Promise.reject(invalid('Request must be multipart/form-data with the parts file and documentType'));
  }
  const ceiling = maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  if (Number(req.headers['content-length'] ?? 0) > ceiling) return Promise.reject(tooLarge(maxFileBytes));

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // busboy reports 'limit' on reaching fileSize, so one byte more tells "too large" from "exactly the limit".
      // Further fields and files are skipped and reported through fieldsLimit / filesLimit.
      limits: { files: 1, fileSize: maxFileBytes + 1, fields: 1, fieldSize: 1024, headerPairs: 20 },
    });
  } catch (error) {
    // busboy throws synchronously on a missing boundary or an unsupported content type
    return Promise.reject(
      /boundary/i.test((error as Error).message)
        ? invalid('Malformed multipart/form-data request: the Content-Type header has no boundary; let your HTTP library set it')
        : malformed((error as Error).message),
    );
  }

  return new Promise<DraftUpload>((resolve, reject) => {
    const upload: DraftUpload = {};
    let failure: DomainError | undefined;
    let storing: Promise<void> | undefined;
    let received = 0;
    let settled = false;
    const fail = (error: DomainError) => {
      failure ??= error;
    };

    const finish = async () => {
      if (settled) return;
      settled = true;
      req.off('data', countBytes);
      await storing?.catch(() => undefined);
      if (failure) {
        // Whatever is left of the body is read and discarded, so the connection can carry the answer
        // and the next request (the server's requestTimeout bounds a body that never ends).
        req.unpipe(parser);
        req.resume();
        if (upload.file) await storage.delete(upload.file.stored.key);
        reject(failure);
      } else resolve(upload);
    };

    // A chunked body has no Content-Length to check up front: stop reading once it is clearly too large.
    const countBytes = (chunk: Buffer) => {
      received += chunk.length;
      if (received > ceiling) {
        fail(tooLarge(maxFileBytes));
        parser.destroy(new Error('request body over the upload ceiling'));
      }
    };
    req.on('data', countBytes);

    parser.on('field', (name, value, info) => {
      if (name !== 'documentType') return fail(uploadRefused(`Unexpected form field "${name}"; send only ${FIELD_NAMES.join(' and ')}`));
      if (info.valueTruncated) return fail(uploadRefused('documentType is too long'));
      upload.documentType = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return fail(uploadRefused(`Unexpected file part "${name}"; send the file in the part named "file"`));
      }
      storing = storeFile(stream, storage, maxFileBytes).then(
        (file) => {
          upload.file = { ...file, clientFileName: info.filename };
        },
        (error: unknown) => fail(error instanceof DomainError ? error : malformed('the file part could not be read')),
      );
    });
    parser.on('filesLimit', () => fail(uploadRefused('Send exactly one file per request')));
    parser.on('fieldsLimit', () => fail(uploadRefused('Send only the fields file and documentType')));
    parser.on('error', (error: Error) => {
      fail(malformed(error.message));
      void finish();
    });
    parser.on('close', () => void finish());
    req.on('close', () => {
      if (req.complete) return;
      fail(malformed('the client closed the connection before the body ended'));
      parser.destroy(new Error('client closed the connection'));
    });
    req.pipe(parser);
  });
}

const tooLarge = (maxFileBytes: number) => uploadRefused(`File exceeds the maximum size of ${maxFileBytes} bytes`, true);

/** Streams one file part into storage; rejects (keeping nothing) when it is too large or plainly not a document. */
async function storeFile(stream: Readable & { truncated?: boolean }, storage: DocumentStorage, maxFileBytes: number) {
  const probe = new ContentProbe(
    SNIFF_BYTES,
    (head) => (sniffContentType(head) ? undefined : uploadRefused('File content is not a JPEG, PNG, WebP or PDF file')),
    (head) => bytesToJudge(head, maxFileBytes),
  );
  // busboy waits for its file stream to be read: keep draining it after we stop storing.
  const abandon = (error: Error) => {
    stream.unpipe(probe);
    stream.resume();
    probe.destroy(error);
  };
  probe.on('error', () => {
    stream.unpipe(probe);
    stream.resume();
  });
  stream.on('limit', () => abandon(tooLarge(maxFileBytes)));
  stream.on('error', (error) => abandon(error));
  // busboy destroys the part when the whole parse is abandoned; the write must not wait for an end that never comes
  stream.on('close', () => {
    if (!stream.readableEnded) abandon(new Error('the file part ended early'));
  });
  stream.pipe(probe);
  const stored = await storage.write(probe);
  return { stored, sha256: probe.sha256, leadingBytes: probe.leadingBytes };
}
