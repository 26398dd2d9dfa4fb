import type { EntityManager } from '@mikro-orm/postgresql';
import { judgeUpload } from '../domain/document-upload';
import { sanitiseFileName } from '../domain/document-file-name';
import { Document } from '../entities/document';
import { uploadRefused } from '../domain/errors';
import type { DocumentStorage, StoredObject } from '../storage/document-storage';
import type { Principal } from './authentication';
import { lockDraftQuota, refuseOverDraftQuota, type DraftQuota } from './draft-quota';

/** A received multipart upload whose file bytes are already in storage. */
export interface DraftUpload {
  documentType?: string;
  file?: {
    clientFileName?: string;
    stored: StoredObject;
    sha256: string;
    /** The first bytes, enough to judge the content by (a PDF whole). */
    leadingBytes: Uint8Array;
  };
}

/**
 * Turns a received upload into a draft document of the caller's company, within its draft quota.
 * Either the row commits or the stored bytes are deleted: no file without a row, no row without a file.
 */
export async function createDraftDocument(
  em: EntityManager,
  storage: DocumentStorage,
  principal: Principal,
  upload: DraftUpload,
  quota: DraftQuota,
): Promise<Document> {
  const { file } = upload;
  try {
    const verdict = judgeUpload({ documentType: upload.documentType, file: file && { size: file.stored.size, leadingBytes: file.leadingBytes } });
    if (!verdict.accepted) throw uploadRefused(verdict.reason);
    // judgeUpload rejects a missing file, so file is here
    const stored = file!;
    return await em.transactional(async (tx) => {
      await lockDraftQuota(tx, principal.companyId);
      await refuseOverDraftQuota(tx, principal.companyId, quota);
      return tx.create(Document, {
        company: principal.companyId,
        documentType: verdict.documentType,
        fileName: sanitiseFileName(stored.clientFileName),
        fileSize: stored.stored.size,
        contentType: verdict.contentType,
        storageKey: stored.stored.key,
        sha256: stored.sha256,
      });
    });
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
export async function purgeExpiredDrafts(em: EntityManager, storage: DocumentStorage, options: PurgeOptions): Promise<{ purged: number }> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.ttlHours * 3_600_000);
  const batchSize = options.batchSize ?? 500;
  const connection = em.getConnection();
  let purged = 0;
  for (;;) {
    const rows: { storage_key: string }[] = await connection.execute(
      `delete from "document" where "id" in (
         select "id" from "document"
          where "traveller_id" is null and "uploaded_at" < ?
          order by "uploaded_at" limit ? for update skip locked)
       and "traveller_id" is null
       returning "storage_key"`,
      [cutoff, batchSize],
    );
    // A crash between the delete and here leaves unreferenced bytes, never a row without bytes.
    for (const row of rows) await storage.delete(row.storage_key);
    purged += rows.length;
    if (rows.length < batchSize) return { purged };
  }
}
