import { execFileSync } from 'node:child_process';
import path from 'node:path';
import newman from 'newman';
import type { RunningServer } from '../../src/server';
import { startTestServer } from '../support/test-server';

const ROOT = path.resolve(__dirname, '../..');

/** Every folder (tag) of the collection that holds requests: the changelog folder is text only. */
const FOLDERS = ['Authentication', 'Reference data', 'Documents', 'Travellers', 'Orders', 'Payments', 'Promo codes', 'Certificates', 'Payment callback', 'Operations'];

function runCollection(baseUrl: string, folders: string[]): Promise<newman.NewmanRunSummary> {
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection: path.join(ROOT, 'postman/collection.json'),
        environment: path.join(ROOT, 'postman/sandbox.postman_environment.json'),
        envVar: [{ key: 'baseUrl', value: baseUrl }],
        folder: folders,
        reporters: [],
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
  });
}

describe('npm run postman (collection run with newman)', () => {
  let server: RunningServer;

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/postman.mjs'], { cwd: ROOT, stdio: 'ignore' });
    server = await startTestServer();
  }, 60_000);
  afterAll(() => server.stop());

  it('takes a sandbox token and passes every check of every request, none answered with a 5xx', async () => {
    const summary = await runCollection(server.url, FOLDERS);
    const failures = summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error.message}`);
    expect(failures).toEqual([]);
    const executed = summary.run.executions.map((execution) => `${execution.item.name} ${execution.response?.code}`);
    expect(executed).toEqual(
      expect.arrayContaining(['Issue an access token 200', 'Price a trip for one traveller 200', 'List packages 200', 'List routes 200', 'Prometheus metrics 200']),
    );
    // Requests on the examples' identifiers get documented 4xx answers (404 for an unknown order);
    // none may fail on the server side.
    expect(executed.filter((line) => !/ [234]\d\d$/.test(line))).toEqual([]);
    // 25 requests: one per operation of the collection (the live providers' return, the certificate and the verification page among them).
    expect(executed).toHaveLength(25);
    expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(executed.length);
  });
});
