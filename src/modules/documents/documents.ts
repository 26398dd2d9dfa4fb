import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { bytesToJudge, SNIFF_BYTES, sniffContentType } from './rules/document-content';
import { judgeUpload, pdfRefusal } from './rules/document-upload';
import type { PdfCheckPool } from './pdf-checks';
import { sanitiseFileName } from './rules/document-file-name';
import { Document } from './entities/document';
import { uploadRefused } from '../../kernel/errors';
import { ContentProbe } from './storage/content-probe';
import type { DocumentStorage, StoredObject } from './storage/document-storage';
import type { Principal } from '../../kernel/http/request-scope';
import { lockDraftQuota, refuseOverDraftQuota, type DraftQuota } from './draft-quota';
import { idempotentCreate } from '../../kernel/http/idempotent-create';

/** A file part in storage, with what it is judged on. */
export interface StoredFilePart {
  stored: StoredObject;
  sha256: string;
  /** The first bytes, enough to judge the content by (a PDF whole). */
  leadingBytes: Uint8Array;
}

/** A received multipart upload whose file bytes are already in storage. */
export interface DraftUpload {
  documentType?: string;
  file?: StoredFilePart & { clientFileName?: string };
}

/** A file part as the multipart parser hands it over; busboy emits 'limit' once it passes the size limit. */
export type FilePartStream = Readable & { truncated?: boolean };

/** Where the multipart parser puts the file part: it knows the wire, the sink knows storage. */
export interface FilePartSink {
  write(stream: FilePartStream): Promise<StoredFilePart>;
  discard(file: StoredFilePart): Promise<void>;
}

export interface DraftLimits {
  quota: DraftQuota;
  maxFileBytes: number;
}

/** What a draft upload needs besides the database: where bytes go, and who judges PDFs. */
export interface DraftServices {
  storage: DocumentStorage;
  pdfChecks: PdfCheckPool;
}

export const fileTooLarge = (maxFileBytes: number) =>
  uploadRefused(`File exceeds the maximum size of ${maxFileBytes} bytes`, true);

/**
 * POST /documents: refuses a company over its draft quota before any byte is stored, lets
 * `receive` parse the request into storage, then records the draft (checking the quota again
 * under a lock).
 */
export async function uploadDraftDocument(
  em: EntityManager,
  services: DraftServices,
  principal: Principal,
  limits: DraftLimits,
  receive: (sink: FilePartSink) => Promise<DraftUpload>,
  idempotencyKey?: string,
): Promise<DraftAnswer> {
  await refuseOverDraftQuota(em, principal.companyId, limits.quota);
  const upload = await receive(draftFileSink(services.storage, limits.maxFileBytes));
  return createDraftDocument(em, services, principal, upload, limits.quota, idempotencyKey);
}

/**
 * Streams a file part straight into storage while hashing it and keeping the bytes it is judged
 * on (an image's header; a PDF whole, at most `maxFileBytes`, since active content can sit
 * anywhere in it); rejects, keeping nothing, when it is too large or plainly not a document.
 */
export function draftFileSink(storage: DocumentStorage, maxFileBytes: number): FilePartSink {
  return {
    write: (stream) => storeFilePart(stream, storage, maxFileBytes),
    discard: (file) => storage.delete(file.stored.key),
  };
}

async function storeFilePart(
  stream: FilePartStream,
  storage: DocumentStorage,
  maxFileBytes: number,
): Promise<StoredFilePart> {
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
  stream.on('limit', () => abandon(fileTooLarge(maxFileBytes)));
  stream.on('error', (error) => abandon(error));
  // busboy destroys the part when the whole parse is abandoned; the write must not wait for an end that never comes
  stream.on('close', () => {
    if (!stream.readableEnded) abandon(new Error('the file part ended early'));
  });
  stream.pipe(probe);
  const stored = await storage.write(probe);
  return { stored, sha256: probe.sha256, leadingBytes: probe.leadingBytes };
}

/**
 * Turns a received upload into a draft document of the caller's company, within its draft quota.
 * A PDF is judged by the worker pool, awaited here: the event loop only waits for the verdict.
 * Either the row commits or the stored bytes are deleted: no file without a row, no row without a file.
 * With an Idempotency-Key already used for the same upload (type, bytes, file name), the first
 * document is answered and this upload's bytes are deleted.
 */
/** The draft, and whether it is the one an earlier upload with the same Idempotency-Key made. */
export interface DraftAnswer {
  document: Document;
  replayed: boolean;
}

export async function createDraftDocument(
  em: EntityManager,
  { storage, pdfChecks }: DraftServices,
  principal: Principal,
  upload: DraftUpload,
  quota: DraftQuota,
  idempotencyKey?: string,
): Promise<DraftAnswer> {
  const { file } = upload;
  try {
    const verdict = judgeUpload({
      documentType: upload.documentType,
      file: file && { size: file.stored.size, leadingBytes: file.leadingBytes },
    });
    if (!verdict.accepted) throw uploadRefused(verdict.reason);
    // judgeUpload rejects a missing file, so file is here
    const stored = file!;
    if (verdict.contentType === 'application/pdf') {
      const refusal = pdfRefusal(verdict.documentType, await pdfChecks.check(stored.leadingBytes));
      if (refusal) throw uploadRefused(refusal);
    }
    const fileName = sanitiseFileName(stored.clientFileName);
    const request = { documentType: verdict.documentType, sha256: stored.sha256, fileName };
    let recorded: Document | undefined;
    const answer = await idempotentCreate(
      em,
      { companyId: principal.companyId, operation: 'uploadDocument', key: idempotencyKey, request },
      async (tx) => {
        const document = await tx.transactional(async (inner) => {
          await lockDraftQuota(inner, principal.companyId);
          await refuseOverDraftQuota(inner, principal.companyId, quota);
          return inner.create(Document, {
            company: principal.companyId,
            documentType: verdict.documentType,
            fileName,
            fileSize: stored.stored.size,
            contentType: verdict.contentType,
            storageKey: stored.stored.key,
            sha256: stored.sha256,
          });
        });
        recorded = document;
        return { status: 201, body: document.id };
      },
    );
    if (recorded && answer.body === recorded.id) return { document: recorded, replayed: false };
    // A retry of an upload already recorded: the first document stands, these bytes go.
    await storage.delete(stored.stored.key);
    return { document: await em.findOneOrFail(Document, answer.body), replayed: true };
  } catch (error) {
    if (file) await storage.delete(file.stored.key);
    throw error;
  }
}

export interface PurgeOptions {
  ttlHours: number;
  now?: Date;
  batchSize?: number;
}

/**
 * Deletes drafts uploaded more than `ttlHours` ago, rows first, then their bytes. The delete
 * re-checks `traveller_id is null` under the row lock and skips rows a registration holds, so a
 * document being attached at that moment is never purged.
 */
export async function purgeExpiredDrafts(
  em: EntityManager,
  storage: DocumentStorage,
  options: PurgeOptions,
): Promise<{ purged: number }> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.ttlHours * 3_600_000);
  const batchSize = options.batchSize ?? 500;
  const connection = em.getConnection();
  let purged = 0;
  for (;;) {
    const rows: { storage_key: string }[] = await connection.execute(
      `delete from "document" where "id" in (
         select "id" from "document"
          where "traveller_id" is null and "attached_at" is null and "uploaded_at" < ?
          order by "uploaded_at" limit ? for update skip locked)
       and "traveller_id" is null and "attached_at" is null
       returning "storage_key"`,
      [cutoff, batchSize],
    );
    // A crash between the delete and here leaves unreferenced bytes, never a row without bytes.
    for (const row of rows) await storage.delete(row.storage_key);
    purged += rows.length;
    if (rows.length < batchSize) return { purged };
  }
}
