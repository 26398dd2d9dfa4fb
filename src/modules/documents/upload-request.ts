import busboy from 'busboy';
import type { Request } from 'express';
import { fileTooLarge, type DraftUpload, type FilePartSink, type FilePartStream } from './documents';
import { DomainError, invalid, uploadRefused } from '../../kernel/errors';
import { isMultipart } from '../../kernel/http/multipart';

/** Room for part headers and the documentType field on top of the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const FIELD_NAMES = ['file', 'documentType'];

const malformed = (detail: string) =>
  invalid(`Malformed multipart/form-data request: ${detail}`).coded('MALFORMED_REQUEST');

/**
 * Parses a POST /documents body with busboy, handing the `file` part's stream to `sink` (the
 * documents service stores and judges it) as it arrives. Resolves once the whole request is read;
 * on any failure rejects, after asking the sink to discard whatever it kept.
 */
export function receiveDocumentUpload(req: Request, sink: FilePartSink, maxFileBytes: number): Promise<DraftUpload> {
  const contentType = req.headers['content-type'];
  if (!isMultipart(contentType)) {
    return Promise.reject(invalid('Request must be multipart/form-data with the parts file and documentType'));
  }
  if (Number(req.headers['content-length'] ?? 0) > maxFileBytes + MULTIPART_OVERHEAD_BYTES)
    return Promise.reject(fileTooLarge(maxFileBytes));
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers and HTTP libraries send a file name's UTF-8 bytes as they are (filename="पासपोर्ट.png"):
      // busboy's default reads them as latin1 and stored mojibake.
      defParamCharset: 'utf8',
      // busboy reports 'limit' on reaching fileSize, so one byte more tells "too large" from "exactly the limit".
      // Further fields and files are skipped and reported through fieldsLimit / filesLimit.
      limits: { files: 1, fileSize: maxFileBytes + 1, fields: 1, fieldSize: 1024, headerPairs: 20 },
    });
  } catch (error) {
    return Promise.reject(unparsable(error));
  }
  return new Promise<DraftUpload>((resolve, reject) => {
    new Reception(req, parser, sink, maxFileBytes, { resolve, reject }).start();
  });
}

/** A body that ended before its closing boundary, naming the parts that arrived whole and those that did not. */
function truncatedBody(upload: DraftUpload): DomainError {
  const whole = [upload.documentType !== undefined ? 'documentType' : undefined, upload.file ? 'file' : undefined];
  const arrived = FIELD_NAMES.filter((name) => whole.includes(name));
  const missing = FIELD_NAMES.filter((name) => !whole.includes(name));
  return malformed(
    `the body ended before its closing boundary; arrived whole: ${arrived.join(', ') || 'none'}; cut off or missing: ${missing.join(', ') || 'none'}. Nothing was stored: send the whole request again`,
  );
}

/** busboy throws synchronously on a missing boundary or an unsupported content type. */
function unparsable(error: unknown): DomainError {
  const message = error instanceof Error ? error.message : String(error);
  return /boundary/i.test(message)
    ? invalid(
        'Malformed multipart/form-data request: the Content-Type header has no boundary; let your HTTP library set it',
      ).coded('MALFORMED_REQUEST')
    : malformed(message);
}

/** One request's parse: the parts received so far, the first failure, and the file still being written. */
class Reception {
  private readonly upload: DraftUpload = {};
  private failure: DomainError | undefined;
  private storing: Promise<void> | undefined;
  private received = 0;
  private settled = false;
  private truncated = false;
  private readonly ceiling: number;

  constructor(
    private readonly req: Request,
    private readonly parser: busboy.Busboy,
    private readonly sink: FilePartSink,
    private readonly maxFileBytes: number,
    private readonly outcome: { resolve: (upload: DraftUpload) => void; reject: (error: DomainError) => void },
  ) {
    this.ceiling = maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  }

  start(): void {
    const { req, parser } = this;
    req.on('data', this.countBytes);
    parser.on('field', (name, value, info) => this.field(name, value, info.valueTruncated));
    parser.on('file', (name, stream, info) => this.file(name, stream, info.filename));
    parser.on('filesLimit', () => this.fail(uploadRefused('Send exactly one file per request')));
    parser.on('fieldsLimit', () => this.fail(uploadRefused('Send only the fields file and documentType')));
    parser.on('error', (error: Error) => {
      // busboy's words for a body cut before its closing boundary: said with the parts that arrived (finish).
      if (/unexpected end of (form|multipart data)/i.test(error.message)) this.truncated = true;
      else this.fail(malformed(error.message));
      void this.finish();
    });
    parser.on('close', () => void this.finish());
    req.on('close', () => {
      if (req.complete) return;
      this.fail(malformed('the client closed the connection before the body ended'));
      parser.destroy(new Error('client closed the connection'));
    });
    req.pipe(parser);
  }

  private fail(error: DomainError): void {
    this.failure ??= error;
  }

  /** A chunked body has no Content-Length to check up front: stop reading once it is clearly too large. */
  private readonly countBytes = (chunk: Buffer): void => {
    this.received += chunk.length;
    if (this.received > this.ceiling) {
      this.fail(fileTooLarge(this.maxFileBytes));
      this.parser.destroy(new Error('request body over the upload ceiling'));
    }
  };

  private field(name: string, value: string, truncated: boolean): void {
    if (name !== 'documentType')
      return this.fail(uploadRefused(`Unexpected form field "${name}"; send only ${FIELD_NAMES.join(' and ')}`));
    if (truncated) return this.fail(uploadRefused('documentType is too long'));
    this.upload.documentType = value;
  }

  private file(name: string, stream: FilePartStream, clientFileName: string | undefined): void {
    if (name !== 'file') {
      stream.resume();
      return this.fail(uploadRefused(`Unexpected file part "${name}"; send the file in the part named "file"`));
    }
    this.storing = this.sink.write(stream).then(
      (file) => {
        this.upload.file = { ...file, clientFileName };
      },
      (error: unknown) =>
        this.fail(error instanceof DomainError ? error : malformed('the file part could not be read')),
    );
  }

  private async finish(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    this.req.off('data', this.countBytes);
    await this.storing?.catch(() => undefined);
    // A cut body also breaks the file part it cut (its content cannot be judged): the cut is what to report.
    if (this.truncated && this.failure?.kind !== 'upload-too-large') this.failure = truncatedBody(this.upload);
    if (!this.failure) return this.outcome.resolve(this.upload);
    // Whatever is left of the body is read and discarded, so the connection can carry the answer
    // and the next request (the server's requestTimeout bounds a body that never ends).
    this.req.unpipe(this.parser);
    this.req.resume();
    if (this.upload.file) await this.sink.discard(this.upload.file);
    this.outcome.reject(this.failure);
  }
}
