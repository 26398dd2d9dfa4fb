import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DocumentStorage, StoredObject } from './document-storage';
import { checkedStorageKey, newStorageKey } from './storage-key';

/**
 * Documents on local disk under `<DATA_DIR>/documents`, which nothing serves over HTTP: the
 * embedded default, for one machine (see storage-key for the keys).
 */
export class LocalDiskStorage implements DocumentStorage {
  constructor(readonly root: string) {}

  async write(source: Readable): Promise<StoredObject> {
    const key = newStorageKey();
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const sink = createWriteStream(file, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(source, sink);
    } catch (error) {
      await this.delete(key);
      throw error;
    }
    return { key, size: sink.bytesWritten };
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    const file = this.pathOf(key);
    try {
      await fs.access(file);
      return true;
    } catch {
      return false;
    }
  }

  private pathOf(key: string): string {
    return path.join(this.root, checkedStorageKey(key));
  }
}
