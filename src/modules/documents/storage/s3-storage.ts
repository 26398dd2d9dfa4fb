import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, NotFound, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, Readable, Transform } from 'node:stream';
import type { S3StorageConfig } from '../settings';
import type { DocumentStorage, StoredObject } from './document-storage';
import { checkedStorageKey, newStorageKey } from './storage-key';
import { isRecord } from '../../../kernel/narrow';

/**
 * The smallest part S3 accepts (5 MiB), two in flight: a 10 MiB document streams through with at
 * most about 10 MiB of parts in memory, whatever the file size (bench/upload-memory.mjs).
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * Documents in an S3-compatible bucket (AWS S3, MinIO, R2 ...), so that every server process on
 * every machine reads what any of them stored. Objects are `<prefix><key>`; bytes are streamed
 * in multipart upload parts, never held whole.
 */
export class S3Storage implements DocumentStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  async write(source: Readable): Promise<StoredObject> {
    const key = newStorageKey();
    let size = 0;
    const counted = source.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      }),
    );
    // pipe() does not forward errors: the upload must see the source fail, or it waits for ever.
    source.once('error', (error) => counted.destroy(error));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: counted },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      // An aborted upload aborts its multipart upload: no parts left to pay for.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // A failure after the last part (the Complete call) may still have made the object.
      await this.delete(key).catch(() => undefined);
      throw error;
    }
    return { key, size };
  }

  read(key: string): Readable {
    const out = new PassThrough();
    this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })).then(
      (response) => {
        if (!(response.Body instanceof Readable)) return out.destroy(new Error('S3 returned no body stream'));
        response.Body.once('error', (error) => out.destroy(error));
        response.Body.pipe(out);
      },
      (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return out;
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing key with success: idempotent as the port asks.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (error) {
      if (
        error instanceof NotFound ||
        (isRecord(error) && isRecord(error.$metadata) && error.$metadata.httpStatusCode === 404)
      )
        return false;
      throw error;
    }
  }

  private objectKey(key: string): string {
    return `${this.prefix}${checkedStorageKey(key)}`;
  }
}

/** An S3 client from validated settings; without keys the SDK's own chain (environment, instance role) applies. */
export function s3StorageFor(settings: S3StorageConfig): S3Storage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Some S3-compatible stores reject the newer default checksums; send them only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return new S3Storage(client, settings.bucket, settings.prefix);
}
