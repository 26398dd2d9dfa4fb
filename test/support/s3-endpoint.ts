import S3rver from '@20minutes/s3rver';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { S3StorageConfig } from '../../src/modules/documents';

/** An S3-protocol server on loopback (s3rver, objects in a temporary folder) with one bucket. */
export interface S3Endpoint {
  endpoint: string;
  settings: S3StorageConfig;
  /** The DOCUMENT_STORAGE and S3_* variables a server process needs to use this bucket. */
  env: Record<string, string>;
  /** Every object key in the bucket under the settings' prefix. */
  objectKeys(): Promise<string[]>;
  close(): Promise<void>;
}

const BUCKET = 'pbs-documents';
// s3rver's fixed credentials; it checks signatures made with them.
const ACCESS_KEY = 'S3RVER';
const OBJECT_SUFFIX = '._S3rver_object';

export async function startS3Endpoint(prefix = 'documents/'): Promise<S3Endpoint> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pbs-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET }],
  });
  const address: AddressInfo = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings: S3StorageConfig = {
    kind: 's3',
    bucket: BUCKET,
    prefix,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  };
  return {
    endpoint,
    settings,
    env: {
      DOCUMENT_STORAGE: 's3',
      S3_BUCKET: BUCKET,
      S3_PREFIX: prefix,
      S3_ENDPOINT: endpoint,
      S3_REGION: settings.region,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    },
    // s3rver rejects the signature of the SDK's listing requests: read its folder instead.
    async objectKeys() {
      const root = path.join(directory, BUCKET);
      return fs
        .readdirSync(root, { recursive: true, encoding: 'utf8' })
        .filter((entry) => entry.endsWith(OBJECT_SUFFIX))
        .map((entry) => entry.slice(0, -OBJECT_SUFFIX.length).split(path.sep).join('/'))
        .filter((key) => key.startsWith(prefix));
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
