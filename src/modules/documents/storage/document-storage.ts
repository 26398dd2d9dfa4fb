import type { Readable } from 'node:stream';

/** Where a stored object's bytes went: a key the storage generated, never a client's name. */
export interface StoredObject {
  key: string;
  size: number;
}

/**
 * The storage port for document bytes. Adapters stream (never hold a whole file in memory) and
 * clean up after themselves: a failed write leaves nothing behind.
 */
export interface DocumentStorage {
  /** Streams `source` to a new object under a generated key; rejects (and keeps nothing) if `source` errors. */
  write(source: Readable): Promise<StoredObject>;
  read(key: string): Readable;
  /** Removes an object; removing one that is already gone is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}
