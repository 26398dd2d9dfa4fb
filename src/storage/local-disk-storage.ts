import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DocumentStorage, StoredObject } from './document-storage';

const KEY_PATTERN = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/;

/**
 * Documents on local disk under `<DATA_DIR>/documents`, which nothing serves over HTTP. Keys are
 * `<2 hex>/<uuid>`: generated, fan out over 256 folders, and cannot name anything outside the root.
 */
export class LocalDiskStorage implements DocumentStorage {
  constructor(readonly root: string) {}

  async write(source: Readable): Promise<StoredObject> {
    const id = randomUUID();
    const key = `${id.slice(0, 2)}/${id}`;
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
    try {
      await fs.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`Not a storage key: ${key}`);
    return path.join(this.root, key);
  }
}

/** The configured document storage: the local disk under DATA_DIR, shared by the server and the CLI. */
export const documentStorageFor = (config: { dataDir: string }): DocumentStorage => new LocalDiskStorage(path.join(config.dataDir, 'documents'));
