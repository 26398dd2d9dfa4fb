import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { purgeExpiredDrafts } from '../../src/modules/documents/documents';
import { s3StorageFor } from '../../src/modules/documents/storage/s3-storage';
import { builtServerFixtures, forkServer, type ServerProcess } from '../support/built-server';
import { expectContract } from '../support/contract';
import { FILES, TRAVELLERS_PATH, travellerInput, uploadDocument, uploadTravellerDocuments } from '../support/documents';
import { ApiClient } from '../support/http-client';
import { sample, scrapeMetricsPort } from '../support/metrics-sample';
import { CTGS } from '../support/catalogue-fixtures';
import { departure, ORDERS } from '../support/order-fixtures';
import { newPartner } from '../support/partners';
import { startS3Endpoint, type S3Endpoint } from '../support/s3-endpoint';
import { expectStatus } from '../support/expect-status';

const fixtures = builtServerFixtures();

const stop = async (server: ServerProcess | undefined) => {
  if (!server) return;
  server.child.kill('SIGTERM');
  await server.exited;
};

/**
 * Two server processes standing for two machines: each its own DATA_DIR (nothing on one disk is
 * seen by the other), one PostgreSQL, one S3 endpoint.
 */
describe('two machines, one PostgreSQL and one bucket', () => {
  let s3: S3Endpoint;
  let machineA: ServerProcess;
  let machineB: ServerProcess;
  const dataDirs: string[] = [];

  beforeAll(async () => {
    s3 = await startS3Endpoint('machines/');
    const machine = (name: string) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pbs-machine-${name}-`));
      dataDirs.push(dataDir);
      return forkServer('main', {
        ...s3.env,
        DATA_DIR: dataDir,
        METRICS_PORT: '0',
        DOCUMENT_PURGE_INTERVAL_SECONDS: '0',
      });
    };
    machineA = await machine('a');
    machineB = await machine('b');
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stop(machineA), stop(machineB)]);
    await s3?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when documents are uploaded through A, then B registers the traveller with them, A reads the order, and the metrics of both add up', async () => {
    const throughA = new ApiClient(machineA.url);
    const throughB = new ApiClient(machineB.url);
    const partner = await newPartner(fixtures, throughA);

    const documents = await uploadTravellerDocuments(throughA, partner.token);
    expect(await s3.objectKeys()).toHaveLength(3);
    // No machine kept the bytes on its own disk.
    for (const dir of dataDirs) expect(fs.existsSync(path.join(dir, 'documents'))).toBe(false);

    const registered = await throughB.op('registerTravellers', 'POST', TRAVELLERS_PATH, [travellerInput(documents)], {
      token: partner.token,
    });
    expectStatus(registered, 201);
    const touristId = registered.body.data[0].touristId;

    const placed = await throughB.op(
      'createOrders',
      'POST',
      ORDERS,
      { touristId, ctgId: CTGS.standard3000, customRouteName: 'Kathmandu valley rim walk', departureDate: departure },
      { token: partner.token },
    );
    expectStatus(placed, 201);
    const read = await throughA.op('getOrder', 'GET', `${ORDERS}/${placed.body.data.orderRef}`, undefined, {
      token: partner.token,
    });
    expectStatus(read, 200);
    await expectContract('getOrder', 200, read.body);
    expect(read.body.data.orderId).toBe(placed.body.data.orderId);

    const [metricsA, metricsB] = await Promise.all([
      scrapeMetricsPort(machineA.metricsPort!),
      scrapeMetricsPort(machineB.metricsPort!),
    ]);
    const total = (name: string, labels: Record<string, string>) =>
      (sample(metricsA.body, name, labels) ?? 0) + (sample(metricsB.body, name, labels) ?? 0);
    expect(sample(metricsA.body, 'http_requests_total', { operation: 'uploadDocument', status: '201' })).toBe(3);
    expect(total('http_requests_total', { operation: 'uploadDocument', status: '201' })).toBe(3);
    expect(total('http_requests_total', { operation: 'registerTravellers', status: '201' })).toBe(1);
    expect(total('orders_created_total', { kind: 'single' })).toBe(1);
    expect(total('http_requests_total', { operation: 'getOrder', status: '200' })).toBe(1);
  });

  it('when a draft uploaded through B expires, then the purge (from any machine) removes its row and its bytes in the bucket', async () => {
    const partner = await newPartner(fixtures, new ApiClient(machineA.url));
    const upload = await uploadDocument(new ApiClient(machineB.url), partner.token, 'AVATAR', FILES.png);
    expectStatus(upload, 201);
    const before = await s3.objectKeys();
    const { purged } = await purgeExpiredDrafts(fixtures.orm.em.fork(), s3StorageFor(s3.settings), {
      ttlHours: 1,
      now: new Date(Date.now() + 2 * 3_600_000),
    });
    expect(purged).toBeGreaterThanOrEqual(1);
    expect((await s3.objectKeys()).length).toBeLessThan(before.length);
  });
});

/** One request on a fresh connection, so node:cluster hands each to the next worker. */
function getOnNewConnection(port: number, urlPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

describe('npm run start:cluster with METRICS_PORT', () => {
  it('when requests are spread over two workers, then every scrape of the metrics port reads their sum', async () => {
    const cluster = await forkServer('cluster', { CLUSTER_WORKERS: '2', METRICS_PORT: '0' });
    try {
      for (let i = 0; i < 6; i += 1) expect(await getOnNewConnection(cluster.port, '/healthz')).toBe(200);
      const counts: Array<number | undefined> = [];
      for (let i = 0; i < 4; i += 1) {
        const scraped = await scrapeMetricsPort(cluster.metricsPort!);
        expectStatus(scraped, 200);
        counts.push(sample(scraped.body, 'http_requests_total', { operation: 'getHealth', status: '200' }));
      }
      expect(counts).toEqual([6, 6, 6, 6]);
      // The workers' own partner-facing /metrics stays closed: the aggregate is the one truth.
      expect(await getOnNewConnection(cluster.port, '/metrics')).toBe(404);
    } finally {
      cluster.child.kill('SIGTERM');
      await cluster.exited;
    }
  }, 90_000);
});
