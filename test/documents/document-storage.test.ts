import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { DocumentStorage } from '../../src/modules/documents/storage/document-storage';
import { LocalDiskStorage } from '../../src/modules/documents/storage/local-disk-storage';
import { s3StorageFor } from '../../src/modules/documents/storage/s3-storage';
import { startS3Endpoint, type S3Endpoint } from '../support/s3-endpoint';

/** An adapter under test and a way to see every object it holds, whatever the port says. */
interface Subject {
  storage: DocumentStorage;
  storedKeys(): Promise<string[]>;
  close(): Promise<void>;
}

const filesUnder = (root: string): string[] =>
  fs.existsSync(root)
    ? fs
        .readdirSync(root, { recursive: true, encoding: 'utf8' })
        .filter((entry) => fs.statSync(path.join(root, entry)).isFile())
    : [];

async function diskSubject(): Promise<Subject> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-disk-store-'));
  return {
    storage: new LocalDiskStorage(root),
    storedKeys: async () => filesUnder(root),
    close: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

async function s3Subject(): Promise<Subject> {
  const endpoint: S3Endpoint = await startS3Endpoint();
  return {
    storage: s3StorageFor(endpoint.settings),
    storedKeys: () => endpoint.objectKeys(),
    close: () => endpoint.close(),
  };
}

/** `chunks` chunks of 1 MiB, produced one at a time (a stream, never one buffer); optionally failing after them. */
function megabytes(chunks: number, failAfter = false): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent === chunks) {
        if (failAfter) this.destroy(new Error('client went away'));
        else this.push(null);
        return;
      }
      this.push(Buffer.alloc(1024 * 1024, 97 + (sent % 26)));
      sent += 1;
    },
  });
}

describe.each([
  ['local disk', diskSubject],
  ['S3 (s3rver on loopback)', s3Subject],
])('the document storage contract: %s', (_name, makeSubject) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await makeSubject();
  });
  afterAll(() => subject.close());

  it('when a stream is written, then it reads back byte for byte under a generated key with its size', async () => {
    // 7 MiB: more than one S3 multipart part
    const stored = await subject.storage.write(megabytes(7));
    expect(stored.size).toBe(7 * 1024 * 1024);
    expect(stored.key).toMatch(/^[0-9a-f]{2}\/[0-9a-f-]{36}$/);
    const back = await text(subject.storage.read(stored.key));
    expect(back.length).toBe(stored.size);
    expect(back.slice(0, 3)).toBe('aaa');
    expect(back.slice(-3)).toBe('ggg');
    expect(await subject.storage.exists(stored.key)).toBe(true);
    await subject.storage.delete(stored.key);
  });

  it('when the source fails part way (after a first multipart part), then the write rejects and nothing is kept', async () => {
    const before = await subject.storedKeys();
    await expect(subject.storage.write(megabytes(6, true))).rejects.toThrow();
    expect(await subject.storedKeys()).toEqual(before);
  });

  it('when the source fails at once, then the write rejects and nothing is kept', async () => {
    const before = await subject.storedKeys();
    await expect(subject.storage.write(megabytes(0, true))).rejects.toThrow();
    expect(await subject.storedKeys()).toEqual(before);
  });

  it('when an object is deleted twice, or was never there, then delete still succeeds and exists says no', async () => {
    const stored = await subject.storage.write(Readable.from([Buffer.from('%PDF-1.7 tiny')]));
    await subject.storage.delete(stored.key);
    await subject.storage.delete(stored.key);
    await subject.storage.delete('0f/0f000000-0000-4000-8000-000000000000');
    expect(await subject.storage.exists(stored.key)).toBe(false);
    expect(await subject.storedKeys()).not.toContainEqual(expect.stringContaining(stored.key.slice(3)));
  });

  it('when a missing object is read, then the stream fails instead of yielding nothing', async () => {
    await expect(text(subject.storage.read('0f/0f000000-0000-4000-8000-000000000001'))).rejects.toThrow();
  });

  it('when a key is not one the storage generated (a path), then every operation refuses it', async () => {
    await expect(subject.storage.exists('../../etc/passwd')).rejects.toThrow(/Not a storage key/);
    await expect(subject.storage.delete('a/../../b')).rejects.toThrow(/Not a storage key/);
    expect(() => subject.storage.read('/etc/passwd')).toThrow(/Not a storage key/);
  });
});
