import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunningServer } from '../../src/server';
import { LocalDiskStorage } from '../../src/modules/documents/storage/local-disk-storage';
import { CTGS } from '../support/catalogue-fixtures';
import { FILES, TRAVELLERS_PATH, travellerInput, uploadDocument } from '../support/documents';
import type { ApiResponse } from '../support/http-client';
import { everestQuote, ORDERS, departure } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { groupPayPath, pay } from '../support/payment-fixtures';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

// Small limits and an hour's window, so a test's calls never straddle a window boundary.
const LIMITS = {
  RATE_LIMIT_WINDOW_SECONDS: '3600',
  RATE_LIMIT_UPLOAD_PER_COMPANY: '20',
  DOCUMENT_MAX_DRAFTS_PER_COMPANY: '12',
  RATE_LIMIT_UPLOAD_BYTES_PER_COMPANY: String(300 * 1024),
  RATE_LIMIT_QUOTE_PER_COMPANY: '3',
  RATE_LIMIT_ORDER_PER_COMPANY: '2',
  RATE_LIMIT_TRAVELLER_PER_COMPANY: '2',
  RATE_LIMIT_PAY_PER_COMPANY: '2',
};

const expectTooMany = (response: ApiResponse, path: string) => {
  expectStatus(response, 429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(response.body).toMatchObject({ status: 429, error: 'Too Many Requests', path });
};

/** Every file (and its bytes) the disk storage holds. */
function storedFiles(server: RunningServer): { count: number; bytes: number } {
  if (!(server.storage instanceof LocalDiskStorage)) throw new Error('these tests run on the disk storage');
  const root = server.storage.root;
  const files = fs.existsSync(root)
    ? fs
        .readdirSync(root, { recursive: true, encoding: 'utf8' })
        .map((entry) => fs.statSync(path.join(root, entry)))
        .filter((stat) => stat.isFile())
    : [];
  return { count: files.length, bytes: files.reduce((sum, stat) => sum + stat.size, 0) };
}

describe('write limits per company', () => {
  // Its own database: on the shared one, another file's server sweeping its short-window buckets
  // (or clearing them, as the rate-limit tests do) deletes these hour-long counters mid-test.
  const { server, client } = useTestServer({ env: LIMITS, ownDatabase: 'write_limits' });
  const partner = () => newPartner(server, client);

  describe('POST /documents', () => {
    it('when one company floods uploads, then it meets 429s (draft quota, then rate limit), another company still uploads, and storage holds no more than the quota', async () => {
      const flooder = await partner();
      const bystander = await partner();
      const answers: ApiResponse[] = [];
      for (let batch = 0; batch < 3; batch += 1) {
        answers.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, () => uploadDocument(client, flooder.token, 'AVATAR', FILES.png)),
          )),
        );
      }
      const created = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(created).toHaveLength(12);
      expect(refused).toHaveLength(18);
      for (const answer of refused) expectTooMany(answer, '/api/external/v1/documents');
      expect(refused.some((answer) => /unattached documents/.test(answer.body.message))).toBe(true);
      expect(refused.some((answer) => /Too many requests/.test(answer.body.message))).toBe(true);

      expectStatus(await uploadDocument(client, bystander.token, 'AVATAR', FILES.png), 201);
      // Nothing a refused upload sent is kept: the flood's 12 drafts and the bystander's one.
      expect(storedFiles(server)).toEqual({ count: 13, bytes: 13 * FILES.png.length });
    });

    it('when a company has stored its bytes quota in the window, then its next upload is a 429 and the quota is passed by at most one file', async () => {
      const heavy = await partner();
      const before = storedFiles(server).bytes;
      // 100 KiB: a real PNG with trailing bytes after its end.
      const file = Buffer.concat([FILES.png, Buffer.alloc(100 * 1024 - FILES.png.length)]);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const response = await uploadDocument(client, heavy.token, 'AVATAR', file);
        statuses.push(response.status);
        if (response.status === 429) expectTooMany(response, '/api/external/v1/documents');
      }
      expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
      expect(storedFiles(server).bytes - before).toBeLessThanOrEqual(300 * 1024 + file.length);
    });
  });

  describe('other writes', () => {
    let caller: TestPartner;
    beforeAll(async () => {
      caller = await partner();
    });

    it('when a company is over its quote limit, then POST /reference/quote is a 429 while another company still quotes', async () => {
      for (let i = 0; i < 3; i += 1) await everestQuote(client, caller);
      // A valid body (the schema now refuses a quote without routeId or maxAltitude before any limit is counted).
      const body = { nationality: 'Germany', ages: [34], startDate: departure, duration: 16, maxAltitude: 5364 };
      expectTooMany(
        await client.op('createQuote', 'POST', '/api/external/v1/reference/quote', body, { token: caller.token }),
        '/api/external/v1/reference/quote',
      );
      await everestQuote(client, await partner());
    });

    it('when a company is over its order limit, then POST /orders is a 429 (refused requests count too)', async () => {
      const order = {
        touristId: randomUUID(),
        ctgId: CTGS.standard3000,
        customRouteName: 'Kathmandu valley rim walk',
        departureDate: departure,
      };
      for (let i = 0; i < 2; i += 1)
        expectStatus(await client.op('createOrders', 'POST', ORDERS, order, { token: caller.token }), 404);
      expectTooMany(await client.op('createOrders', 'POST', ORDERS, order, { token: caller.token }), ORDERS);
    });

    it('when a company is over its traveller limit, then POST /travellers is a 429', async () => {
      const traveller = travellerInput({
        avatarDocumentId: randomUUID(),
        passportDocumentId: randomUUID(),
        signatureDocumentId: randomUUID(),
      });
      for (let i = 0; i < 2; i += 1)
        expectStatus(
          await client.op('registerTravellers', 'POST', TRAVELLERS_PATH, [traveller], { token: caller.token }),
          404,
        );
      expectTooMany(
        await client.op('registerTravellers', 'POST', TRAVELLERS_PATH, [traveller], { token: caller.token }),
        TRAVELLERS_PATH,
      );
    });

    it('when a company is over its pay limit, then single and group pay are both 429', async () => {
      const body = { gateway: 'card_gateway' };
      for (let i = 0; i < 2; i += 1) expectStatus(await pay(client, caller, 'ORD-2026-999999', body), 404);
      expectTooMany(await pay(client, caller, 'ORD-2026-999999', body), `${ORDERS}/ORD-2026-999999/pay`);
      const group = await client.op('payGroup', 'POST', groupPayPath('GRP-2026-999999'), body, {
        token: caller.token,
        headers: { 'idempotency-key': randomUUID() },
      });
      expectTooMany(group, groupPayPath('GRP-2026-999999'));
    });
  });
});
